/// Categorises Google units (an order's charge or refund) of one period, given both sides of the period and of
/// its two neighbours. Pure: the loader gathers the sides, this decides.
public struct GoogleCategorizer: Sendable {
    /// How close to the shared period edge a unit must be for the other side's neighbour period to explain it.
    public let windowSeconds: Int64

    /// Creates a categoriser with the timing window.
    public init(windowSeconds: Int64 = ReconciliationWindow.timingSeconds) {
        self.windowSeconds = windowSeconds
    }

    /// The sides of one period: report and database units by key.
    public struct Sides: Sendable {
        public var report: [UnitKey: UnitSide] = [:]
        public var database: [UnitKey: UnitSide] = [:]

        /// Empty sides.
        public init() {}
    }

    /// One item per unit of `current`, in key order. `previous`/`next` are the neighbouring periods' sides, whose
    /// edges with `current` are `start` and `end` (UTC epoch seconds).
    public func items(current: Sides, previous: Sides, next: Sides, start: Int64, end: Int64) -> [ReconciliationItem] {
        let keys = Set(current.report.keys).union(current.database.keys).sorted()
        return keys.map { key in
            let report = current.report[key]
            let database = current.database[key]
            let (category, detail) = categorize(key, report: report, database: database, previous: previous, next: next,
                                                start: start, end: end)
            let shown = report ?? database ?? UnitSide()
            return ReconciliationItem(
                category: category, grainKey: key.order, side: key.side, productId: shown.productId, country: shown.country,
                currency: report?.currency ?? database?.currency ?? "",
                databaseCurrency: database.map(\.currency),
                reportUnits: report?.count ?? 0, databaseUnits: database?.count ?? 0,
                reportGross: report?.gross ?? 0, databaseGross: database?.gross ?? 0,
                storeFee: report?.fee ?? 0, tax: report?.tax ?? 0,
                detail: ([detail] + (database?.keys ?? [])).filter { !$0.isEmpty }.joined(separator: " "))
        }
    }

    func categorize(_ key: UnitKey, report: UnitSide?, database: UnitSide?, previous: Sides, next: Sides,
                    start: Int64, end: Int64) -> (ReconciliationCategory, String) {
        switch (report, database) {
        case let (report?, database?):
            if report.currency != database.currency { return (.currencyMismatch, "") }
            if key.side == "charge", report.count > database.count { return (.duplicate, "") }
            // A partial refund: the database, which learns refunds without their amount, holds the whole charge.
            if key.side == "refund", report.refundType == "Partial", report.gross != database.gross {
                return (.refundNotReflected, Self.refundDetail(report))
            }
            return report.gross == database.gross ? (.matched, "") : (.amountMismatch, "")
        case let (report?, nil):
            // Rows that net to nothing (a rebill set whose charge lies in another month) carry no difference.
            if report.count == 0, report.gross == 0, report.fee == 0, report.tax == 0 { return (.matched, "rebill set nets to zero") }
            if let neighbour = nearEdge(key, in: previous.database, edge: start, at: { $0.at }) { return (.timing, "database " + neighbour) }
            if let neighbour = nearEdge(key, in: next.database, edge: end, at: { $0.at }) { return (.timing, "database " + neighbour) }
            return key.side == "refund" ? (.refundNotReflected, Self.refundDetail(report)) : (.missingInDatabase, "")
        case let (nil, database?):
            if database.isTest { return (.testPurchaseExcluded, "") }
            if database.at - start <= windowSeconds, previous.report[key] != nil { return (.timing, "report previous period") }
            if end - database.at <= windowSeconds, next.report[key] != nil { return (.timing, "report next period") }
            return (.missingInStoreReport, "")
        case (nil, nil):
            return (.matched, "")
        }
    }

    /// The detail of a refund the database does not reflect: the report's Refund Type (`Refund Type Partial`), empty
    /// when the report states none (estimated-sales rows).
    static func refundDetail(_ report: UnitSide) -> String {
        report.refundType.isEmpty ? "" : "Refund Type " + report.refundType
    }

    /// The neighbour's database unit when it lies within the window of `edge`.
    func nearEdge(_ key: UnitKey, in sides: [UnitKey: UnitSide], edge: Int64, at: (UnitSide) -> Int64) -> String? {
        guard let side = sides[key], abs(at(side) - edge) <= windowSeconds else { return nil }
        return side.keys.first ?? key.order
    }
}

/// The documented windows of the reconciliation.
public enum ReconciliationWindow {
    /// A unit on the other side of a period edge within 48 hours of it is timing, not missing: Google stamps
    /// rows in US Pacific time while the file's month decides where a row belongs, and store and database instants
    /// of one charge can differ by hours.
    public static let timingSeconds: Int64 = 48 * 3_600
}

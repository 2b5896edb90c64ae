import BillingCore
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
        var items: [ReconciliationItem] = []
        forEachItem(current: current, previous: previous, next: next, start: start, end: end) { items.append($0) }
        return items
    }

    /// `items`, handed to `body` one at a time instead of gathered.
    public func forEachItem(current: Sides, previous: Sides, next: Sides, start: Int64, end: Int64,
                            _ body: (ReconciliationItem) throws -> Void) rethrows {
        var keys = Array(current.report.keys)
        keys.reserveCapacity(current.report.count + current.database.count / 8)
        for key in current.database.keys where current.report[key] == nil { keys.append(key) }
        keys.sort()
        for key in keys {
            try body(item(key, current: current, previous: previous, next: next, start: start, end: end))
        }
    }

    /// The item of the unit `key` of `current`.
    func item(_ key: UnitKey, current: Sides, previous: Sides, next: Sides, start: Int64, end: Int64) -> ReconciliationItem {
        let report = current.report[key]
        let database = current.database[key]
        let (category, detail) = categorize(key, report: report, database: database, previous: previous, next: next,
                                            start: start, end: end)
        return Self.item(key, report: report, database: database, category: category, detail: detail)
    }

    /// The item of a unit from its two sides and its category.
    static func item(_ key: UnitKey, report: UnitSide?, database: UnitSide?, category: ReconciliationCategory,
                     detail: String) -> ReconciliationItem {
        let shown = report ?? database ?? UnitSide()
        var text = detail
        for databaseKey in database?.keys ?? [] where !databaseKey.isEmpty {
            if !text.isEmpty { text += " " }
            text += Redaction.transactionKey(databaseKey)
        }
        return ReconciliationItem(
            category: category, grainKey: key.order, side: key.side, productId: shown.productId, country: shown.country,
            currency: report?.currency ?? database?.currency ?? "",
            databaseCurrency: database.map(\.currency),
            reportUnits: report?.count ?? 0, databaseUnits: database?.count ?? 0,
            reportGross: report?.gross ?? 0, databaseGross: database?.gross ?? 0,
            storeFee: report?.fee ?? 0, tax: report?.tax ?? 0, detail: text)
    }

    func categorize(_ key: UnitKey, report: UnitSide?, database: UnitSide?, previous: Sides, next: Sides,
                    start: Int64, end: Int64) -> (ReconciliationCategory, String) {
        categorize(key, report: report, database: database, start: start, end: end) { neighbour, key in
            switch neighbour {
            case .previousReport: previous.report[key]
            case .previousDatabase: previous.database[key]
            case .nextReport: next.report[key]
            case .nextDatabase: next.database[key]
            }
        }
    }

    /// A side of a neighbouring period.
    enum Neighbour { case previousReport, previousDatabase, nextReport, nextDatabase }

    /// The category and detail of unit `key` from its two sides; `neighbour` finds the unit in a neighbouring
    /// period's side.
    func categorize(_ key: UnitKey, report: UnitSide?, database: UnitSide?, start: Int64, end: Int64,
                    neighbour: (Neighbour, UnitKey) -> UnitSide?) -> (ReconciliationCategory, String) {
        switch (report, database) {
        case let (report?, database?):
            if Self.isPlainMatch(isCharge: key.side == "charge", sameCurrency: report.currency == database.currency,
                                 report: (report.count, report.gross), database: (database.count, database.gross)) {
                return (.matched, "")
            }
            if report.currency != database.currency { return (.currencyMismatch, "") }
            if key.side == "charge", report.count > database.count { return (.duplicate, "") }
            // A partial refund: the database, which learns refunds without their amount, holds the whole charge.
            if key.side == "refund", report.refundType == "Partial", report.gross != database.gross {
                return (.refundNotReflected, Self.refundDetail(report))
            }
            return (.amountMismatch, "")
        case let (report?, nil):
            // Rows that net to nothing (a rebill set whose charge lies in another month) carry no difference.
            if report.count == 0, report.gross == 0, report.fee == 0, report.tax == 0 { return (.matched, "rebill set nets to zero") }
            if let found = nearEdge(key, neighbour(.previousDatabase, key), edge: start) { return (.timing, "database " + found) }
            if let found = nearEdge(key, neighbour(.nextDatabase, key), edge: end) { return (.timing, "database " + found) }
            return key.side == "refund" ? (.refundNotReflected, Self.refundDetail(report)) : (.missingInDatabase, "")
        case let (nil, database?):
            if database.isTest { return (.testPurchaseExcluded, "") }
            if database.at - start <= windowSeconds, neighbour(.previousReport, key) != nil { return (.timing, "report previous period") }
            if end - database.at <= windowSeconds, neighbour(.nextReport, key) != nil { return (.timing, "report next period") }
            return (.missingInStoreReport, "")
        case (nil, nil):
            return (.matched, "")
        }
    }

    /// Whether a unit both sides of the period hold is `matched` with nothing more to look at: the same currency, equal
    /// gross, and for a charge the database holding it at least as often as the report (more often is a duplicate).
    /// `forEachItem`'s fast path writes such units without an item; every other pair goes through `categorize`.
    static func isPlainMatch(isCharge: Bool, sameCurrency: Bool, report: (count: Int64, gross: Int64),
                             database: (count: Int64, gross: Int64)) -> Bool {
        sameCurrency && report.gross == database.gross && (!isCharge || report.count <= database.count)
    }

    /// The detail of a refund the database does not reflect: the report's Refund Type (`Refund Type Partial`), empty
    /// when the report states none (estimated-sales rows).
    static func refundDetail(_ report: UnitSide) -> String {
        report.refundType.isEmpty ? "" : "Refund Type " + report.refundType
    }

    /// The neighbour's database unit when it lies within the window of `edge`: its first stored key (purchase token
    /// masked), else its order.
    func nearEdge(_ key: UnitKey, _ side: UnitSide?, edge: Int64) -> String? {
        guard let side, abs(side.at - edge) <= windowSeconds else { return nil }
        return side.keys.first.map(Redaction.transactionKey) ?? key.order
    }
}

/// The documented windows of the reconciliation.
public enum ReconciliationWindow {
    /// A unit on the other side of a period edge within 48 hours of it is timing, not missing: Google stamps
    /// rows in US Pacific time while the file's month decides where a row belongs, and store and database instants
    /// of one charge can differ by hours.
    public static let timingSeconds: Int64 = 48 * 3_600
}

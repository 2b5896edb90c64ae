import BillingCore
/// Categorises Google units (an order's charge or refund) of one period, given both sides of the period and of
/// its two neighbours. Pure: the reader gathers the sides (`GoogleMonthStream`), this decides.
public struct GoogleCategorizer: Sendable {
    /// How close to the shared period edge a unit must be for the other side's neighbour period to explain it.
    public let windowSeconds: Int64

    /// Creates a categoriser with the timing window.
    public init(windowSeconds: Int64 = ReconciliationWindow.timingSeconds) {
        self.windowSeconds = windowSeconds
    }

    /// A side of a neighbouring period.
    enum Neighbour { case previousReport, previousDatabase, nextReport, nextDatabase }

    /// The category and detail of the unit of `order` on `side` (0 charge, 1 refund) from its report and database
    /// units, whose texts are `reportTexts` and `databaseTexts`; `neighbour` finds the order's unit on the same side in
    /// a neighbouring period (a neighbour's database unit has its texts in `databaseTexts` too).
    func categorize(order: String, side: Int, report: CompactUnit?, database: CompactUnit?, reportTexts: UnitTexts,
                    databaseTexts: UnitTexts, start: Int64, end: Int64,
                    neighbour: (Neighbour) -> CompactUnit?) -> (ReconciliationCategory, String) {
        let isCharge = side == 0
        switch (report, database) {
        case let (report?, database?):
            let sameCurrency = reportTexts.currencies.string(report.currency) == databaseTexts.currencies.string(database.currency)
            if Self.isPlainMatch(isCharge: isCharge, sameCurrency: sameCurrency, report: (Int64(report.count), report.gross),
                                 database: (Int64(database.count), database.gross)) {
                return (.matched, "")
            }
            if !sameCurrency { return (.currencyMismatch, "") }
            if isCharge, report.count > database.count { return (.duplicate, "") }
            // A partial refund: the database, which learns refunds without their amount, holds the whole charge.
            let refundType = reportTexts.refundType(report)
            if !isCharge, refundType == "Partial", report.gross != database.gross {
                return (.refundNotReflected, Self.refundDetail(refundType))
            }
            return (.amountMismatch, "")
        case let (report?, nil):
            // Rows that net to nothing (a rebill set whose charge lies in another month) carry no difference.
            if report.count == 0, report.gross == 0, report.fee == 0, report.tax == 0 { return (.matched, "rebill set nets to zero") }
            if let found = nearEdge(order, neighbour(.previousDatabase), databaseTexts, edge: start) { return (.timing, "database " + found) }
            if let found = nearEdge(order, neighbour(.nextDatabase), databaseTexts, edge: end) { return (.timing, "database " + found) }
            return isCharge ? (.missingInDatabase, "") : (.refundNotReflected, Self.refundDetail(reportTexts.refundType(report)))
        case let (nil, database?):
            if database.isTest { return (.testPurchaseExcluded, "") }
            if database.at - start <= windowSeconds, neighbour(.previousReport) != nil { return (.timing, "report previous period") }
            if end - database.at <= windowSeconds, neighbour(.nextReport) != nil { return (.timing, "report next period") }
            return (.missingInStoreReport, "")
        case (nil, nil):
            return (.matched, "")
        }
    }

    /// The item of the unit of `order` on `side` from its two units (texts in `reportTexts` / `databaseTexts`) and
    /// its category: product and country as the report states them (else the database), the database's keys (purchase
    /// tokens masked) after the detail.
    static func item(order: String, side: Int, report: CompactUnit?, database: CompactUnit?, reportTexts: UnitTexts,
                     databaseTexts: UnitTexts, category: ReconciliationCategory, detail: String) -> ReconciliationItem {
        var text = detail
        for key in database.map({ databaseTexts.keys(of: $0) }) ?? [] where !key.isEmpty {
            if !text.isEmpty { text += " " }
            text += Redaction.transactionKey(key)
        }
        let shown = report.map { ($0, reportTexts) } ?? database.map { ($0, databaseTexts) }
        return ReconciliationItem(
            category: category, grainKey: order, side: side == 0 ? "charge" : "refund",
            productId: shown.map { $0.1.products.string($0.0.product) } ?? "",
            country: shown.map { $0.1.countries.string($0.0.country) } ?? "",
            currency: shown.map { $0.1.currencies.string($0.0.currency) } ?? "",
            databaseCurrency: database.map { databaseTexts.currencies.string($0.currency) },
            reportUnits: Int64(report?.count ?? 0), databaseUnits: Int64(database?.count ?? 0),
            reportGross: report?.gross ?? 0, databaseGross: database?.gross ?? 0,
            storeFee: report?.fee ?? 0, tax: report?.tax ?? 0, detail: text)
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
    static func refundDetail(_ refundType: String) -> String {
        refundType.isEmpty ? "" : "Refund Type " + refundType
    }

    /// The neighbour's database unit when it lies within the window of `edge`: its first stored key (purchase token
    /// masked), else its order.
    func nearEdge(_ order: String, _ unit: CompactUnit?, _ texts: UnitTexts, edge: Int64) -> String? {
        guard let unit, abs(unit.at - edge) <= windowSeconds else { return nil }
        return texts.keys(of: unit).first.map(Redaction.transactionKey) ?? order
    }
}

/// The documented windows of the reconciliation.
public enum ReconciliationWindow {
    /// A unit on the other side of a period edge within 48 hours of it is timing, not missing: Google stamps
    /// rows in US Pacific time while the file's month decides where a row belongs, and store and database instants
    /// of one charge can differ by hours.
    public static let timingSeconds: Int64 = 48 * 3_600
}

import BillingCore
import Reconciliation
import Testing

/// Each Google category from hand-built sides of one period and its neighbours (edges at 1000 and 2000 s).
@Suite struct GoogleCategorizerTests {
    let categorizer = GoogleCategorizer(windowSeconds: 100)

    func side(_ gross: Int64, count: Int64 = 1, currency: String = "USD", at: Int64 = 1_500, test: Bool = false) -> UnitSide {
        var side = UnitSide()
        side.gross = gross
        side.count = count
        side.currency = currency
        side.at = at
        side.isTest = test
        return side
    }

    func category(report: UnitSide?, database: UnitSide?, key: UnitKey = UnitKey(order: "GPA.1", side: "charge"),
                  previous: GoogleCategorizer.Sides = .init(), next: GoogleCategorizer.Sides = .init()) -> ReconciliationCategory? {
        var current = GoogleCategorizer.Sides()
        current.report[key] = report
        current.database[key] = database
        let items = categorizer.items(current: current, previous: previous, next: next, start: 1_000, end: 2_000)
        #expect(items.count == 1)
        return items.first?.category
    }

    @Test func eachCategory() {
        #expect(category(report: side(9_990_000), database: side(9_990_000)) == .matched)
        #expect(category(report: side(10_090_000), database: side(9_990_000)) == .amountMismatch)
        #expect(category(report: side(9_990_000, currency: "EUR"), database: side(9_990_000)) == .currencyMismatch)
        #expect(category(report: side(19_980_000, count: 2), database: side(9_990_000)) == .duplicate)
        #expect(category(report: side(9_990_000), database: nil) == .missingInDatabase)
        #expect(category(report: side(-9_990_000), database: nil, key: UnitKey(order: "GPA.1", side: "refund")) == .refundNotReflected)
        #expect(category(report: nil, database: side(9_990_000)) == .missingInStoreReport)
        #expect(category(report: nil, database: side(9_990_000, test: true)) == .testPurchaseExcluded)
    }

    @Test func timingOnlyWithinTheWindowOfTheSharedEdge() {
        let key = UnitKey(order: "GPA.1", side: "charge")
        var previous = GoogleCategorizer.Sides()
        previous.report[key] = side(9_990_000, at: 990)
        // In the database 50 s after the start; the report books it in the previous month.
        #expect(category(report: nil, database: side(9_990_000, at: 1_050), previous: previous) == .timing)
        // 500 s after the start: outside the window, so it is missing from this month's report.
        #expect(category(report: nil, database: side(9_990_000, at: 1_500), previous: previous) == .missingInStoreReport)
        var next = GoogleCategorizer.Sides()
        next.database[key] = side(9_990_000, at: 2_030)
        #expect(category(report: side(9_990_000, at: 1_990), database: nil, next: next) == .timing)
        next.database[key] = side(9_990_000, at: 2_500)
        #expect(category(report: side(9_990_000, at: 1_990), database: nil, next: next) == .missingInDatabase)
    }

    @Test func aRefundOfAnotherAmountWithoutARefundTypeIsAnAmountMismatch() {
        let key = UnitKey(order: "GPA.1", side: "refund")
        #expect(category(report: side(-4_000_000), database: side(-9_990_000), key: key) == .amountMismatch)
        #expect(category(report: side(-4_000_000), database: side(-4_000_000), key: key) == .matched)
    }

    /// Google's earnings say `Partial`; the database, which learns refunds from voided purchases (no amount), holds the
    /// whole charge refunded: the refund is not reflected, and the detail names the Refund Type (as for a full refund
    /// the database lacks).
    @Test func aPartialRefundIsARefundNotReflectedNamingItsRefundType() {
        let charge = UnitKey(order: "GPA.3302-2312-6140-38722..2", side: "charge")
        let refund = UnitKey(order: charge.order, side: "refund")
        let half = orderRows(" refund", -1, refundType: "Partial").map { line -> GoogleEarningsLine in
            var line = line
            line.amountMicros /= 2
            return line
        }
        let units = GoogleEarningsFold.units(orderRows("", 1) + half)
        #expect(units[refund]?.refundType == "Partial" && units[refund]?.gross == -11_480_000 && units[refund]?.count == 1)
        #expect(units[charge]?.refundType == "")
        var database = [charge: side(22_960_000, currency: "DKK"), refund: side(-22_960_000, currency: "DKK")]
        database[refund]?.keys = ["GOOGLE:token:\(charge.order):REFUNDED"]
        let found = items(units, database: database)
        #expect(found.map(\.category) == [.matched, .refundNotReflected])
        // The stored key's purchase token is masked; the order stays whole.
        #expect(found.last?.detail == "Refund Type Partial GOOGLE:…:\(charge.order):REFUNDED")
        #expect(found.last?.reportGross == -11_480_000 && found.last?.databaseGross == -22_960_000)
        let totals = ReconciliationTotals(found).currencies["DKK"]
        #expect(totals?.variance == 11_480_000 && totals?.byCategory[.refundNotReflected] == 11_480_000)
        #expect(totals?.explained == totals?.variance)

        // Without the database's refund the detail still names the report's Refund Type, `Full` or `Partial`.
        #expect(items(units, database: [charge: database[charge] ?? UnitSide()]).last?.detail == "Refund Type Partial")
        let full = GoogleEarningsFold.units(orderRows("", 1) + orderRows(" refund", -1, refundType: "Full"))
        #expect(items(full, database: [charge: database[charge] ?? UnitSide()]).last?.detail == "Refund Type Full")
        // A Partial refund of the very amount the database holds is matched.
        var same = database
        same[refund]?.gross = -11_480_000
        #expect(items(units, database: same).map(\.category) == [.matched, .matched])
    }

    /// The rows of one order shaped like a real Google earnings file: order ID, DKK amount and the `Charge` row's
    /// empty Refund Type from a real row published in a public project (`GPA.3302-2312-6140-38722..2,"Nov 1, 2019",
    /// 3:29:44 AM PDT,,Charge,,…,DKK,22.96,…`); two `Tax` rows (a withholding split) and the rebill set — the rows
    /// reversed as `… refund` rows with an EMPTY Refund Type, then `Charge rebill` / `Google fee rebill` /
    /// `Tax rebill` — as real files show them. A genuine refund carries Refund Type `Full` or `Partial`.
    func orderRows(_ suffix: String, _ direction: Int64, refundType: String = "") -> [GoogleEarningsLine] {
        let order = "GPA.3302-2312-6140-38722..2"
        func line(_ type: String, _ amount: Int64) -> GoogleEarningsLine {
            GoogleEarningsLine(order: order, transactionType: type + suffix, refundType: refundType,
                               productId: "member.android.cableshop", country: "DK", currency: "DKK",
                               amountMicros: direction * amount, at: 1_500)
        }
        return [line("Charge", 22_960_000), line("Google fee", -3_440_000), line("Tax", -2_300_000), line("Tax", -2_290_000)]
    }

    func items(_ report: [UnitKey: UnitSide], database: [UnitKey: UnitSide]) -> [ReconciliationItem] {
        var current = GoogleCategorizer.Sides()
        current.report = report
        current.database = database
        return categorizer.items(current: current, previous: .init(), next: .init(), start: 1_000, end: 2_000)
    }

    @Test func aRebillSetNetsToTheOneChargeWhileARepeatedChargeIsADuplicate() {
        let charge = UnitKey(order: "GPA.3302-2312-6140-38722..2", side: "charge")
        let database = [charge: side(22_960_000, currency: "DKK")]
        let rebilled = orderRows("", 1) + orderRows(" refund", -1) + orderRows(" rebill", 1)
        let units = GoogleEarningsFold.units(rebilled)
        #expect(units.keys.sorted() == [charge])
        #expect(units[charge]?.count == 1)
        #expect(units[charge]?.gross == 22_960_000)
        #expect(units[charge]?.fee == -3_440_000)
        #expect(units[charge]?.tax == -4_590_000)
        let matched = items(units, database: database)
        #expect(matched.map(\.category) == [.matched])
        let totals = ReconciliationTotals(matched).currencies["DKK"]
        #expect(totals?.variance == 0)
        #expect(totals?.explained == 0)

        // The store writing the order twice (with its rebill set each time) is still a duplicate charge.
        let duplicated = items(GoogleEarningsFold.units(rebilled + rebilled), database: database)
        #expect(duplicated.map(\.category) == [.duplicate])
        let duplicateTotals = ReconciliationTotals(duplicated).currencies["DKK"]
        #expect(duplicateTotals?.variance == 22_960_000)
        #expect(duplicateTotals?.byCategory[.duplicate] == 22_960_000)
        #expect(duplicateTotals?.explained == duplicateTotals?.variance)
        #expect(category(report: GoogleEarningsFold.units(orderRows("", 1) + orderRows("", 1))[charge], database: database[charge],
                         key: charge) == .duplicate)

        // A `Charge refund` with Refund Type `Full` is a refund of the order, not a reversal.
        let refunded = GoogleEarningsFold.units(orderRows("", 1) + orderRows(" refund", -1, refundType: "Full"))
        let refund = UnitKey(order: charge.order, side: "refund")
        #expect(refunded[charge]?.count == 1)
        #expect(refunded[refund]?.count == 1)
        #expect(refunded[refund]?.gross == -22_960_000)
        #expect(items(refunded, database: database).map(\.category) == [.matched, .refundNotReflected])

        // A reversal and rebill alone in a month (the charge booked in another) nets to nothing to explain.
        let alone = GoogleEarningsFold.units(orderRows(" refund", -1) + orderRows(" rebill", 1))
        #expect(alone[charge]?.count == 0)
        let aloneItems = items(alone, database: [:])
        #expect(aloneItems.map(\.category) == [.matched])
        #expect(ReconciliationTotals(aloneItems).currencies["DKK"]?.variance ?? 0 == 0)
    }
}

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

    @Test func partialRefundAgainstAFullRefundIsAnAmountMismatch() {
        let key = UnitKey(order: "GPA.1", side: "refund")
        #expect(category(report: side(-4_000_000), database: side(-9_990_000), key: key) == .amountMismatch)
        #expect(category(report: side(-4_000_000), database: side(-4_000_000), key: key) == .matched)
    }
}

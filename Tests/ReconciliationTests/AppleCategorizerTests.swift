import Reconciliation
import Testing

/// Apple cells: unit differences explained in the documented order, proceeds split exactly.
@Suite struct AppleCategorizerTests {
    let categorizer = AppleCategorizer()
    let monthly = AppleCell(product: "pro.monthly", country: "US", currency: "USD", price: 9_990_000)

    func cell(_ price: Int64, currency: String = "USD") -> AppleCell {
        AppleCell(product: "pro.monthly", country: "US", currency: currency, price: price)
    }

    func sides(report: Int64, database: [(Int64, Bool)], net: Int64? = nil) -> AppleCellSides {
        var sides = AppleCellSides()
        sides.reportUnits = report
        sides.reportNet = net ?? report * 7_000_000
        // Rows of the period 1_000..<2_000 with a timing window of 100 seconds.
        for (at, isTest) in database { sides.addDatabaseRow(at: at, isTest: isTest, start: 1_000, end: 2_000, windowSeconds: 100) }
        return sides
    }

    func units(_ items: [ReconciliationItem]) -> [ReconciliationCategory: Int64] {
        var result: [ReconciliationCategory: Int64] = [:]
        for item in items { result[item.category, default: 0] += max(item.reportUnits, item.databaseUnits) }
        return result
    }

    @Test func surplusShortfallTestsAndMismatches() {
        let current: [AppleCell: AppleCellSides] = [
            // 3 in the report; 3 paid + 1 test in the database, one of the paid at a price the report has not.
            monthly: sides(report: 3, database: [(1_500, false), (1_500, false), (1_600, true)]),
            cell(10_090_000): sides(report: 1, database: []),
            cell(9_990_000, currency: "EUR"): sides(report: 0, database: [(1_500, false)]),
            cell(-9_990_000): sides(report: 1, database: [], net: -7_000_000),
        ]
        let items = categorizer.items(current: current, previous: [:], next: [:])
        let found = units(items)
        #expect(found[.matched] == 2)
        #expect(found[.testPurchaseExcluded] == 1)
        // The report's extra USD unit at 9.99 pairs with the EUR unit of the same product and country.
        #expect(found[.currencyMismatch] == 1)
        #expect(found[.amountMismatch] == nil)
        #expect(found[.missingInDatabase] == 1)
        #expect(found[.refundNotReflected] == 1)
        let totals = ReconciliationTotals(items)
        for line in totals.currencies.values { #expect(line.variance == line.explained) }
        let usdNet: Int64 = 3 * 7_000_000 + 7_000_000 - 7_000_000
        #expect(totals.currencies["USD"]?.net == usdNet, "\(String(describing: totals.currencies["USD"]))")
    }

    @Test func amountMismatchPairsTwoPricesOfOneCurrency() {
        let current: [AppleCell: AppleCellSides] = [
            monthly: sides(report: 1, database: [(1_500, false), (1_500, false)]),
            cell(10_090_000): sides(report: 1, database: []),
        ]
        let found = units(categorizer.items(current: current, previous: [:], next: [:]))
        #expect(found == [.matched: 1, .amountMismatch: 1])
    }

    @Test func timingNeedsTheNeighbourAndTheWindow() {
        let near: [AppleCell: AppleCellSides] = [monthly: sides(report: 0, database: [(1_950, false)])]
        let next: [AppleCell: AppleCellSides] = [monthly: sides(report: 1, database: [])]
        #expect(units(categorizer.items(current: near, previous: [:], next: next)) == [.timing: 1])
        let far: [AppleCell: AppleCellSides] = [monthly: sides(report: 0, database: [(1_500, false)])]
        #expect(units(categorizer.items(current: far, previous: [:], next: next)) == [.missingInStoreReport: 1])
    }
}

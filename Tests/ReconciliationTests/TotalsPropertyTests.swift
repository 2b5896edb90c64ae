import Reconciliation
import Testing

/// Property: whatever the items, the category amounts sum to the variance per currency, to the micro.
@Suite struct TotalsPropertyTests {
    @Test func categoriesExplainTheVarianceExactly() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int64) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64((state >> 33) % UInt64(bound))
        }
        let currencies = ["USD", "EUR", "JPY"]
        for _ in 0..<200 {
            var items: [ReconciliationItem] = []
            for _ in 0..<Int(next(40)) {
                let currency = currencies[Int(next(3))]
                let other = next(10) == 0 ? currencies[Int(next(3))] : currency
                let category = ReconciliationCategory.allCases[Int(next(Int64(ReconciliationCategory.allCases.count)))]
                items.append(ReconciliationItem(
                    category: category, grainKey: "k", side: "charge", productId: "p", country: "US", currency: currency,
                    databaseCurrency: other, reportUnits: next(3), databaseUnits: next(3),
                    reportGross: next(100_000_000) - 50_000_000, databaseGross: next(100_000_000) - 50_000_000,
                    storeFee: -next(1_000_000), tax: -next(1_000_000)))
            }
            let totals = ReconciliationTotals(items)
            for currency in currencies {
                let line = totals.currencies[currency] ?? .init()
                let report = items.filter { $0.currency == currency }.reduce(0) { $0 + $1.reportGross }
                let database = items.filter { ($0.databaseCurrency ?? $0.currency) == currency }.reduce(0) { $0 + $1.databaseGross }
                #expect(line.variance == report - database)
                #expect(line.explained == line.variance)
                #expect(line.net == line.reportGross + line.storeFee + line.tax)
            }
        }
    }
}

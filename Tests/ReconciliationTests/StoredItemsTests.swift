import Reconciliation
import Testing

/// What a run stores: differences one row each at their CSV line, matched Google units summed per side × product ×
/// country × currency with the number of orders in `unitCount`.
@Suite struct StoredItemsTests {
    func item(_ category: ReconciliationCategory, _ order: String, side: String = "charge", product: String = "p1",
              currency: String = "USD", gross: Int64 = 9_990_000, fee: Int64 = -1_500_000) -> ReconciliationItem {
        ReconciliationItem(category: category, grainKey: order, side: side, productId: product, country: "US", currency: currency,
                           databaseCurrency: currency, reportUnits: 1, databaseUnits: 1, reportGross: gross,
                           databaseGross: category == .amountMismatch ? gross - 1 : gross, storeFee: fee, tax: -500_000,
                           detail: "GOOGLE:key:" + order)
    }

    @Test func matchedUnitsAreSummedAndDifferencesKeepTheirLine() {
        var late = item(.matched, "GPA.9")
        late.priorPeriodAdjustment = true
        late.adjustmentPeriod = "2026-09"
        let items = [item(.matched, "GPA.1"), item(.amountMismatch, "GPA.2"), item(.matched, "GPA.3"),
                     item(.matched, "GPA.4", product: "p2"), item(.matched, "GPA.5", side: "refund", gross: -9_990_000),
                     item(.matched, "GPA.6", currency: "EUR"), item(.matched, "GPA.7"), late]
        let stored = StoredItems(items).stored
        #expect(StoredItems(items).count == 8)
        // The difference and the prior-period adjustment at their own lines, then one summed row per group.
        #expect(stored.map(\.line) == [2, 8, 9, 10, 11, 12])
        #expect(stored.map(\.item.grainKey) == ["GPA.2", "GPA.9", "*", "*", "*", "*"])
        #expect(stored.map(\.unitCount) == [1, 1, 3, 1, 1, 1])
        let charges = stored[2].item
        #expect(charges.side == "charge" && charges.productId == "p1" && charges.currency == "USD" && charges.detail.isEmpty)
        #expect(charges.reportUnits == 3 && charges.databaseUnits == 3)
        #expect(charges.reportGross == 29_970_000 && charges.databaseGross == 29_970_000)
        #expect(charges.storeFee == -4_500_000 && charges.tax == -1_500_000 && charges.net == 29_970_000 - 6_000_000)
        #expect(stored[4].item.side == "refund" && stored[4].item.reportGross == -9_990_000)
        #expect(stored[5].item.currency == "EUR")
        // Every item is counted once, and the totals of the stored rows equal those of the items.
        #expect(stored.map(\.unitCount).reduce(0, +) == items.count)
        #expect(ReconciliationTotals(stored.map(\.item)).currencies.mapValues(\.variance)
            == ReconciliationTotals(items).currencies.mapValues(\.variance))
        #expect(ReconciliationTotals(stored.map(\.item)).currencies.mapValues(\.net)
            == ReconciliationTotals(items).currencies.mapValues(\.net))
    }

    @Test func appleCellsAreNeverSummed() {
        let cell = ReconciliationItem(category: .matched, grainKey: "p|US|USD|9990000|S", side: "sale", productId: "p", country: "US",
                                      currency: "USD", reportUnits: 2, databaseUnits: 2, reportGross: 1, databaseGross: 1)
        let stored = StoredItems([cell, cell]).stored
        #expect(stored.map(\.line) == [1, 2] && stored.allSatisfy { $0.unitCount == 1 && $0.item.grainKey == cell.grainKey })
    }
}

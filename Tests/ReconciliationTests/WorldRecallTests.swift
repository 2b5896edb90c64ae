import Foundation
import Reconciliation
import Testing
import WorldGen

/// Generated worlds at three seeds, every discrepancy kind at 2%: the world's report files go through
/// `import-exports`, every period through `reconcile`, and the flagged items must be exactly the manifest's
/// report discrepancies, each in its category (recall and precision 100%), with totals tying to the micro.
@Suite(.serialized) struct WorldRecallTests {
    /// The category each of the world's discrepancy kinds must be found in.
    static func category(_ kind: ReportDiscrepancyKind) -> ReconciliationCategory {
        switch kind {
        case .missingInDatabase: return .missingInDatabase
        case .missingInReport: return .missingInStoreReport
        case .amountMismatch: return .amountMismatch
        case .duplicate: return .duplicate
        case .currencyMismatch: return .currencyMismatch
        case .refundMissingInDatabase: return .refundNotReflected
        case .periodBoundary: return .timing
        case .testPurchaseExcluded: return .testPurchaseExcluded
        }
    }

    struct Flag: Hashable, CustomStringConvertible {
        var order: String
        var side: String
        var category: ReconciliationCategory
        var description: String { "\(order) \(side) \(category.rawValue)" }
    }

    @Test(arguments: [3, 7, 11] as [UInt64]) func googleOrdersAreFoundInTheirCategory(seed: UInt64) throws {
        let harness = try ReconcileHarness("google_\(seed)", seed: seed)
        try harness.importReports()
        let items = try harness.reconcileAll(.google)
        #expect(!items.isEmpty)
        var expected = Set<Flag>()
        var testOrders = Set<String>()
        for discrepancy in harness.discrepancies where discrepancy.provider == "GOOGLE" {
            let order = try #require(discrepancy.orderId)
            let side = discrepancy.kind == .refundMissingInDatabase ? "refund" : "charge"
            expected.insert(Flag(order: order, side: side, category: Self.category(discrepancy.kind)))
            if discrepancy.kind == .testPurchaseExcluded { testOrders.insert(order) }
        }
        #expect(Set(expected.map(\.category)).count >= 7, "the world injected too few kinds: \(expected.count)")
        let flagged = Set(items.filter { $0.1.category != .matched }.map { Flag(order: $0.1.grainKey, side: $0.1.side, category: $0.1.category) })
        // A test purchase's refund is excluded with its charge (the manifest lists the charge).
        let extra = flagged.subtracting(expected).filter { !($0.category == .testPurchaseExcluded && testOrders.contains($0.order)) }
        let missed = expected.subtracting(flagged)
        #expect(missed.isEmpty, "recall: not found \(missed.sorted { $0.description < $1.description }.prefix(10))")
        #expect(extra.isEmpty, "precision: flagged beyond the manifest \(extra.sorted { $0.description < $1.description }.prefix(10))")
        try expectTotalsTie(harness, .google)
    }

    /// Apple at its cell grain: the manifest's discrepancies become unit counts per period, cell and category (a
    /// charge reported twice is one more report unit, i.e. `missing_in_database`), compared with the flagged items.
    @Test(arguments: [3, 7, 11] as [UInt64]) func appleCellsAreFoundInTheirCategory(seed: UInt64) throws {
        let harness = try ReconcileHarness("apple_\(seed)", seed: seed)
        try harness.importReports()
        let items = try harness.reconcileAll(.apple)
        var expected: [String: Int64] = [:]
        func add(_ period: String?, _ discrepancy: ReportDiscrepancy, currency: String? = nil, micros: Int64?,
                 _ category: ReconciliationCategory) {
            let cell = AppleCell(product: discrepancy.productId, country: discrepancy.country,
                                 currency: currency ?? discrepancy.currency, price: micros ?? 0)
            expected[[period ?? "", cell.key, category.rawValue].joined(separator: " "), default: 0] += 1
        }
        for d in harness.discrepancies where d.provider == "APPLE" {
            switch d.kind {
            case .missingInDatabase, .duplicate: add(d.reportPeriod, d, micros: d.reportMicros, .missingInDatabase)
            case .missingInReport: add(d.databasePeriod, d, micros: d.databaseMicros, .missingInStoreReport)
            case .amountMismatch: add(d.reportPeriod, d, micros: d.reportMicros, .amountMismatch)
            case .currencyMismatch: add(d.reportPeriod, d, currency: d.reportCurrency, micros: d.reportMicros, .currencyMismatch)
            case .refundMissingInDatabase: add(d.reportPeriod, d, micros: d.reportMicros, .refundNotReflected)
            case .periodBoundary:
                add(d.reportPeriod, d, micros: d.reportMicros, .timing)
                add(d.databasePeriod, d, micros: d.databaseMicros, .timing)
            case .testPurchaseExcluded: add(d.databasePeriod, d, micros: d.databaseMicros, .testPurchaseExcluded)
            }
        }
        var flagged: [String: Int64] = [:]
        for (period, item) in items where item.category != .matched && !item.priorPeriodAdjustment {
            // A test purchase's refund is excluded with it; the manifest lists the charge only.
            if item.category == .testPurchaseExcluded && item.side == "return" { continue }
            flagged[[period, item.grainKey, item.category.rawValue].joined(separator: " "), default: 0]
                += max(item.reportUnits, item.databaseUnits)
        }
        withKnownIssue("the world's Apple financial files are not importable until they are real-shaped (file names, Total_Units)") {
            #expect(!expected.isEmpty)
            let missed = expected.filter { flagged[$0.key] != $0.value }
            let extra = flagged.filter { expected[$0.key] == nil }
            #expect(missed.isEmpty, "recall: \(missed.sorted { $0.key < $1.key }.prefix(10))")
            #expect(extra.isEmpty, "precision: \(extra.sorted { $0.key < $1.key }.prefix(10))")
        }
        try expectTotalsTie(harness, .apple)
    }

    /// The stored items of each current run sum to the report and database totals computed straight from the
    /// staging rows and billing_transaction, per currency, and the categories explain the variance.
    func expectTotalsTie(_ harness: ReconcileHarness, _ provider: ReconciliationPeriod.Provider) throws {
        for period in try harness.periods(provider) {
            let items = try harness.items(provider, period.label).filter { !$0.priorPeriodAdjustment }
            let totals = ReconciliationTotals(items)
            let databaseRows = try harness.database.query("""
                SELECT currency_code AS c, sum(amount_micros)::int8 AS n FROM billing_transaction
                WHERE provider = $1::billing_provider AND amount_micros <> 0
                  AND event_type::text = ANY(\(MoneyEvents.sqlArray)) AND ($1 = 'APPLE' OR order_id IS NOT NULL)
                  AND effective_at >= to_timestamp($2) AND effective_at < to_timestamp($3) GROUP BY currency_code
                """, [provider.databaseLabel, period.start, period.end]).rows
            for row in databaseRows {
                let currency = try row.decode(String.self, "c")
                #expect(totals.currencies[currency]?.databaseGross == (try row.decode(Int64.self, "n")), "\(period) \(currency)")
            }
            for (currency, line) in totals.currencies {
                #expect(line.explained == line.variance, "\(period) \(currency)")
                #expect(line.net == line.reportGross + line.storeFee + line.tax)
            }
        }
    }
}

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
        case .refundMissingInDatabase, .partialRefund: return .refundNotReflected
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
        for discrepancy in harness.discrepancies where discrepancy.provider == "GOOGLE" {
            let order = try #require(discrepancy.orderId)
            let refund = discrepancy.kind == .refundMissingInDatabase || (discrepancy.databaseMicros ?? 0) < 0
            let side = refund ? "refund" : "charge"
            expected.insert(Flag(order: order, side: side, category: Self.category(discrepancy.kind)))
        }
        #expect(Set(expected.map(\.category)).count >= 7, "the world injected too few kinds: \(expected.count)")
        let flagged = Set(items.filter { $0.1.category != .matched }.map { Flag(order: $0.1.grainKey, side: $0.1.side, category: $0.1.category) })
        let extra = flagged.subtracting(expected)
        let missed = expected.subtracting(flagged)
        #expect(missed.isEmpty, "recall: not found \(missed.sorted { $0.description < $1.description }.prefix(10))")
        #expect(extra.isEmpty, "precision: flagged beyond the manifest \(extra.sorted { $0.description < $1.description }.prefix(10))")
        try expectTotalsTie(harness, .google)
    }

    /// Apple at its cell grain (product × country × currency × price × sale/return per fiscal period), per item as
    /// for Google. The world never injects two Apple differences into one product, country and side of a period and
    /// its neighbours (`AppleGroups`), so none can cancel or pair; each discrepancy names the category observable at
    /// Apple's grain (`observedKind`: a charge reported twice is one more report unit, `missing_in_database`). The
    /// flagged items — per period, cell, category (and, for a mismatch, the database cell it pairs with) with their
    /// report and database units — must equal exactly the items the manifest predicts: recall and precision 100%.
    @Test(arguments: [3, 7, 11] as [UInt64]) func appleItemsAreFoundInTheirCategory(seed: UInt64) throws {
        let harness = try ReconcileHarness("apple_\(seed)", seed: seed, share: 0.02)
        try harness.importReports()
        let items = try harness.reconcileAll(.apple)
        struct Units: Equatable, CustomStringConvertible {
            var report: Int64 = 0
            var database: Int64 = 0
            var description: String { "report \(report) database \(database)" }
        }
        var expected: [String: Units] = [:]
        var kinds = Set<ReportDiscrepancyKind>()
        for d in harness.discrepancies where d.provider == "APPLE" {
            func cell(_ micros: Int64?, _ currency: String? = nil) -> AppleCell {
                AppleCell(product: d.productId, country: d.country, currency: currency ?? d.currency, price: micros ?? 0)
            }
            func key(_ period: String?, _ cell: AppleCell, _ category: ReconciliationCategory, pair: AppleCell? = nil) -> String {
                "\(period ?? "-") \(cell.key) \(category.rawValue)" + (pair.map { " database " + $0.key } ?? "")
            }
            let kind = try #require(d.observedKind, "manifest without observedKind: \(d.transactionKey)")
            kinds.insert(kind)
            switch kind {
            case .missingInDatabase, .duplicate:
                expected[key(d.reportPeriod, cell(d.reportMicros), .missingInDatabase), default: Units()].report += 1
            case .refundMissingInDatabase, .partialRefund:
                expected[key(d.reportPeriod, cell(d.reportMicros), .refundNotReflected), default: Units()].report += 1
            case .missingInReport:
                expected[key(d.databasePeriod, cell(d.databaseMicros), .missingInStoreReport), default: Units()].database += 1
            case .testPurchaseExcluded:
                expected[key(d.databasePeriod, cell(d.databaseMicros), .testPurchaseExcluded), default: Units()].database += 1
            case .amountMismatch, .currencyMismatch:
                let category = Self.category(kind)
                let pairKey = key(d.reportPeriod, cell(d.reportMicros, d.reportCurrency), category, pair: cell(d.databaseMicros))
                expected[pairKey, default: Units()].report += 1
                expected[pairKey, default: Units()].database += 1
            case .periodBoundary:
                expected[key(d.reportPeriod, cell(d.reportMicros), .timing), default: Units()].report += 1
                expected[key(d.databasePeriod, cell(d.databaseMicros), .timing), default: Units()].database += 1
            }
        }
        #expect(!harness.discrepancies.contains { $0.provider == "APPLE" && $0.kind == .duplicate && $0.observedKind != .missingInDatabase })
        let appleCount = harness.discrepancies.filter { $0.provider == "APPLE" }.count
        #expect(kinds.count >= 5 && appleCount >= 8, "the world injected too few Apple differences: \(appleCount) of kinds \(kinds)")
        var flagged: [String: Units] = [:]
        for (period, item) in items where item.category != .matched && !item.priorPeriodAdjustment {
            let paired = [.amountMismatch, .currencyMismatch].contains(item.category) ? " " + item.detail : ""
            let key = "\(period) \(item.grainKey) \(item.category.rawValue)" + paired
            flagged[key, default: Units()].report += item.reportUnits
            flagged[key, default: Units()].database += item.databaseUnits
        }
        let missed = expected.keys.filter { flagged[$0] != expected[$0] }.sorted()
        let extra = flagged.keys.filter { expected[$0] == nil }.sorted()
        #expect(missed.isEmpty, "recall: \(missed.prefix(10).map { "\($0): expected \(expected[$0].map(\.description) ?? "-"), flagged \(flagged[$0].map(\.description) ?? "-")" })")
        #expect(extra.isEmpty, "precision: flagged beyond the manifest \(extra.prefix(10).map { "\($0): \(flagged[$0].map(\.description) ?? "")" })")
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
                  AND event_type = ANY(\(MoneyEvents.sqlArray)) AND ($1 = 'APPLE' OR order_id IS NOT NULL)
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

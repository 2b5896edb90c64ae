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

    /// Apple at its cell grain (product × country × currency × price × sale/return per fiscal period). Apple's files
    /// are aggregates, so two discrepancies in one product, country and side of a period can cancel or pair with each
    /// other; the checks are: (1) per period and cell, the units flagged net to exactly what the manifest injected;
    /// (2) every discrepancy alone in its group (product, country, side over the period and its neighbours) is found
    /// in its category (a charge reported twice is one more report unit: `missing_in_database`); (3) no group without
    /// a discrepancy is flagged.
    @Test(arguments: [3, 7, 11] as [UInt64]) func appleCellsAreFoundInTheirCategory(seed: UInt64) throws {
        let harness = try ReconcileHarness("apple_\(seed)", seed: seed, share: 0.01)
        try harness.importReports()
        let items = try harness.reconcileAll(.apple)
        struct Effect { var period: String; var cell: AppleCell; var units: Int64; var category: ReconciliationCategory }
        var effects: [[Effect]] = []
        for d in harness.discrepancies where d.provider == "APPLE" {
            func cell(_ micros: Int64?, _ currency: String? = nil) -> AppleCell {
                AppleCell(product: d.productId, country: d.country, currency: currency ?? d.currency, price: micros ?? 0)
            }
            let report = d.reportPeriod ?? "", database = d.databasePeriod
            switch d.kind {
            case .missingInDatabase, .duplicate: effects.append([Effect(period: report, cell: cell(d.reportMicros), units: 1, category: .missingInDatabase)])
            case .missingInReport: effects.append([Effect(period: database, cell: cell(d.databaseMicros), units: -1, category: .missingInStoreReport)])
            case .amountMismatch, .currencyMismatch:
                let category: ReconciliationCategory = d.kind == .amountMismatch ? .amountMismatch : .currencyMismatch
                effects.append([Effect(period: report, cell: cell(d.reportMicros, d.reportCurrency), units: 1, category: category),
                                Effect(period: database, cell: cell(d.databaseMicros), units: -1, category: category)])
            case .refundMissingInDatabase: effects.append([Effect(period: report, cell: cell(d.reportMicros), units: 1, category: .refundNotReflected)])
            case .periodBoundary:
                effects.append([Effect(period: report, cell: cell(d.reportMicros), units: 1, category: .timing),
                                Effect(period: database, cell: cell(d.databaseMicros), units: -1, category: .timing)])
            case .testPurchaseExcluded: effects.append([Effect(period: database, cell: cell(d.databaseMicros), units: -1, category: .testPurchaseExcluded)])
            }
        }
        // What was flagged: units per period and cell (report units count at the item's cell, database units at the
        // paired database cell for a mismatch), and the categories per period and cell.
        var flaggedNet: [String: Int64] = [:]
        var flaggedCategories: [String: Set<ReconciliationCategory>] = [:]
        for (period, item) in items where item.category != .matched && !item.priorPeriodAdjustment {
            let databaseKey = item.detail.hasPrefix("database ") && item.category != .timing ? String(item.detail.dropFirst(9)) : item.grainKey
            flaggedNet[period + " " + item.grainKey, default: 0] += item.reportUnits
            flaggedNet[period + " " + databaseKey, default: 0] -= item.databaseUnits
            flaggedCategories[period + " " + item.grainKey, default: []].insert(item.category)
            flaggedCategories[period + " " + databaseKey, default: []].insert(item.category)
        }
        var expectedNet: [String: Int64] = [:]
        for effect in effects.joined() { expectedNet[effect.period + " " + effect.cell.key, default: 0] += effect.units }
        let nets = Set(expectedNet.keys).union(flaggedNet.keys).filter { (expectedNet[$0] ?? 0) != (flaggedNet[$0] ?? 0) }
        #expect(nets.isEmpty, "net units per cell: \(nets.sorted().prefix(10).map { "\($0) expected \(expectedNet[$0] ?? 0) flagged \(flaggedNet[$0] ?? 0)" })")
        // A group: period, product, country and side; a discrepancy is alone when no other touches its groups or the
        // same groups of the neighbouring periods (timing reads the neighbours).
        func group(_ period: String, _ cell: AppleCell) -> String { "\(period)|\(cell.product)|\(cell.country)|\(cell.side)" }
        func neighbourhood(_ effect: Effect) -> Set<String> {
            let here = ReconciliationPeriod(.apple, effect.period)
            return Set([here?.previous?.label, effect.period, here?.next?.label].compactMap { $0 }.map { group($0, effect.cell) })
        }
        var touching: [String: Int] = [:]
        for effectSet in effects { for g in Set(effectSet.map { group($0.period, $0.cell) }) { touching[g, default: 0] += 1 } }
        let alone = effects.filter { set in
            let own = Set(set.map { group($0.period, $0.cell) })
            return set.allSatisfy { neighbourhood($0).allSatisfy { (touching[$0] ?? 0) == (own.contains($0) ? 1 : 0) } }
        }
        #expect(alone.count >= 8, "too few isolated discrepancies to measure: \(alone.count) of \(effects.count)")
        #expect(Set(alone.map { $0[0].category }).count >= 4, "\(Set(alone.map { $0[0].category }))")
        for effectSet in alone {
            for effect in effectSet {
                let found = flaggedCategories[effect.period + " " + effect.cell.key] ?? []
                #expect(found == [effect.category], "\(effect.period) \(effect.cell.key): expected \(effect.category), found \(found)")
            }
        }
        let untouched = flaggedCategories.keys.filter { key in
            let cellKey = key.split(separator: " ").dropFirst().joined(separator: " ")
            let parts = cellKey.split(separator: "|", omittingEmptySubsequences: false)
            let period = String(key.split(separator: " ").first ?? "")
            return parts.count == 5 && touching["\(period)|\(parts[0])|\(parts[1])|\(parts[4] == "R" ? "return" : "sale")"] == nil
        }
        #expect(untouched.isEmpty, "precision: flagged without a discrepancy \(untouched.sorted().prefix(10))")
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

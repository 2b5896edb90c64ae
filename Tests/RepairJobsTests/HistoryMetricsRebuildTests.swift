import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// Issue 13's acceptance for the metrics: for generated worlds at three seeds, after the nightly chain, the SQL rebuild
/// in Reports/history_metrics.sql (history rows only) equals the world's expected metrics cell by cell, except for the
/// subscriptions whose injected fault the chain cannot reach, which are left out of both sides and counted by reason.
@Suite(.serialized) struct HistoryMetricsRebuildTests {
    /// The columns compared (the local view: one provider and currency, in that currency).
    static let columns: [(String, @Sendable (ExpectedMetricsRow) -> Int64)] = [
        ("mrr_micros", { $0.mrrMicros }), ("paying_subscribers", { Int64($0.payingSubscribers) }),
        ("start_mrr_micros", { $0.startMrrMicros }), ("fx_micros", { $0.fxMicros }), ("new_micros", { $0.newMicros }),
        ("expansion_micros", { $0.expansionMicros }), ("contraction_micros", { $0.contractionMicros }),
        ("churn_micros", { $0.churnMicros }), ("reactivation_micros", { $0.reactivationMicros }),
        ("new_count", { Int64($0.newCount) }), ("expansion_count", { Int64($0.expansionCount) }),
        ("contraction_count", { Int64($0.contractionCount) }), ("churn_count", { Int64($0.churnCount) }),
        ("reactivation_count", { Int64($0.reactivationCount) }),
        ("refunds_by_refund_month_count", { Int64($0.refundsByRefundMonthCount ?? 0) }),
        ("refunds_by_refund_month_micros", { $0.refundsByRefundMonthMicros ?? 0 }),
        ("chargebacks_count", { Int64($0.chargebacksCount ?? 0) }), ("chargebacks_micros", { $0.chargebacksMicros ?? 0 }),
        ("refunds_by_charge_month_count", { Int64($0.refundsByChargeMonthCount ?? 0) }),
        ("refunds_by_charge_month_micros", { $0.refundsByChargeMonthMicros ?? 0 }),
        ("family_revocations", { Int64($0.familyRevocations ?? 0) }),
    ]

    /// The rebuild query, read from the repository.
    static func rebuildSQL() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Reports/history_metrics.sql"), encoding: .utf8)
    }

    @Test(arguments: [91, 7, 2026] as [UInt64])
    func theRebuildEqualsTheWorldsExpectedMetrics(seed: UInt64) throws {
        var options = WorldOptions(seed: seed, subscriptions: 1_500, months: 8, testShare: 0.04)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.03) })
        let harness = try RequeryHarness(name: "history_rebuild_\(seed)", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        for step in NightlyChainRun(harness: harness, asOf: options.asOf).run(runKey: "rebuild") {
            #expect(step.code == .succeeded, "\(step.name): \(step.summary)")
        }

        // Unreachable faults: the world's own list and the chain's documented limits, by subscription and reason.
        var excludedByReason: [String: Set<String>] = [:]
        for group in WorldWriter.expectedMetrics(harness.world).unreachableFaults {
            excludedByReason[group.reason, default: []].formUnion(group.subscriptionIds)
        }
        for (reason, faults) in try ManifestRecall.reachable(harness.world, database: db, asOf: options.asOf).excludedFaults {
            excludedByReason["chain_limit:\(reason)", default: []].formUnion(faults.map(\.subscriptionId))
        }
        let excluded = excludedByReason.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let identifiers = Set(harness.world.manifest.faults.filter { excluded.contains($0.subscriptionId) }.map(\.storeIdentifier))
        try Self.excludeFromHistory(db, subscriptions: excluded, storeIdentifiers: identifiers)

        let expected = WorldWriter.expectedMetrics(harness.world, excluding: excluded)
        var wanted: [String: ExpectedMetricsRow] = [:]
        for row in expected.rows where row.view == "local" { wanted["\(row.month) \(row.provider) \(row.currency)"] = row }
        var rebuilt: [String: [String: Int64]] = [:]
        for row in try db.query(Self.rebuildSQL(), [options.asOf, expected.months.first.map { $0 + "-01T00:00:00Z" } ?? ""]).rows {
            let key = "\(try row.decode(String.self, "month")) \(try row.decode(String.self, "provider")) \(try row.decode(String.self, "currency"))"
            rebuilt[key] = try Dictionary(uniqueKeysWithValues: Self.columns.map { ($0.0, try row.decode(Int64.self, $0.0)) })
        }

        var compared = 0, mismatches: [String] = []
        for key in Set(wanted.keys).union(rebuilt.keys).sorted() {
            for (column, value) in Self.columns {
                compared += 1
                let want = wanted[key].map(value) ?? 0, got = rebuilt[key]?[column] ?? 0
                if want != got { mismatches.append("\(key) \(column): expected \(want), rebuilt \(got)") }
            }
        }
        let reasons = excludedByReason.keys.sorted().map { "\($0)=\(excludedByReason[$0]?.count ?? 0)" }.joined(separator: " ")
        print("history rebuild seed \(seed): cells \(compared), equal \(compared - mismatches.count), "
              + "excluded subscriptions \(excluded.count) [\(reasons)]")
        #expect(compared > 0 && rebuilt.count > 0)
        #expect(mismatches.isEmpty, "\(mismatches.count) cells differ: \(mismatches.prefix(40).joined(separator: "\n"))")
    }

    /// Removes the history rows of `subscriptions` (the world's ids, or the store identities a chain-created row has).
    static func excludeFromHistory(_ db: PostgresConnection, subscriptions: Set<String>, storeIdentifiers: Set<String>) throws {
        func list(_ values: Set<String>) -> String {
            values.isEmpty ? "NULL" : values.sorted().map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",")
        }
        try db.execute("""
            DELETE FROM billing_transaction WHERE subscription_id IN (
                SELECT id FROM subscription WHERE id::text IN (\(list(subscriptions)))
                UNION SELECT subscription_id FROM apple_subscription_identity WHERE original_transaction_id IN (\(list(storeIdentifiers)))
                UNION SELECT subscription_id FROM google_purchase_token WHERE purchase_token IN (\(list(storeIdentifiers))))
            """)
    }
}

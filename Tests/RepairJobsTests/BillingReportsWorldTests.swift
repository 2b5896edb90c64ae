import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// Reports/grace_hold_recovery.sql and Reports/price_change_churn.sql against generated worlds at three seeds after the
/// nightly chain: aggregated to the expected-metrics grain they equal the world's own answer, with the subscriptions
/// whose injected fault the chain cannot reach left out of both sides and counted by reason (as
/// ReportRebuildTests does).
@Suite(.serialized) struct BillingReportsWorldTests {
    /// The grace/hold columns: the world's key and the report's.
    static let graceColumns: [(String, String, @Sendable (ExpectedMetricsRow) -> Int)] = [
        ("grace_entered", "grace_entered_count", { $0.graceEntered ?? 0 }),
        ("grace_recovered", "grace_recovered_count", { $0.graceRecovered ?? 0 }),
        ("hold_entered", "hold_entered_count", { $0.holdEntered ?? 0 }),
        ("hold_recovered", "hold_recovered_count", { $0.holdRecovered ?? 0 }),
        ("billing_churned", "churned_count", { $0.billingChurned ?? 0 }),
        ("billing_open", "open_count", { $0.billingOpen ?? 0 }),
    ]

    /// The cohort columns compared: every one the world computes, the baseline included (both sides use the cohort's
    /// observed window; Reports/README.md, "Price-change churn").
    static let cohortColumns: [(String, @Sendable (PriceChangeCohort) -> Int64)] = [
        ("affected_count", { Int64($0.affected) }), ("notified_count", { Int64($0.notified) }),
        ("other_churn_count", { Int64($0.otherChurn) }),
        ("consented_count", { Int64($0.consented) }), ("applied_count", { Int64($0.applied) }),
        ("churned_due_to_change_count", { Int64($0.churnedDueToChange) }),
        ("baseline_peers_count", { Int64($0.baselinePeers) }), ("baseline_churned_count", { Int64($0.baselineChurned) }),
        ("mrr_lost_micros", { $0.mrrLostMicros }), ("mrr_gained_micros", { $0.mrrGainedMicros }),
    ]

    @Test(arguments: [91, 7, 2026] as [UInt64])
    func theReportsEqualTheWorldsGraceHoldAndPriceChangeCounts(seed: UInt64) throws {
        var options = WorldOptions(seed: seed, subscriptions: 1_500, months: 8, testShare: 0.04)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.03) })
        let harness = try RequeryHarness(name: "billing_reports_\(seed)", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        for step in NightlyChainRun(harness: harness, asOf: options.asOf).run(runKey: "billing") {
            #expect(step.code == .succeeded, "\(step.name): \(step.summary)")
        }

        let exclusion = try UnreachableFaultExclusion.apply(harness.world, database: db, asOf: options.asOf)
        let excluded = exclusion.subscriptions
        let expected = WorldWriter.expectedMetrics(harness.world, excluding: excluded)
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let first = (expected.months.first ?? "2000-01") + "-01T00:00:00Z"

        // Grace and hold: the report's rows summed over plan and country, per month x provider x currency.
        var graceMismatches: [String] = []
        var got: [String: [String: Int]] = [:]
        for row in try ReportSQL.rows(db, "grace_hold_recovery", asOf: asOf, from: first, to: asOf) {
            let key = "\(row["failure_month"] ?? "") \(row["provider"] ?? "") \(row["currency"] ?? "")"
            for (_, column, _) in Self.graceColumns { got[key, default: [:]][column, default: 0] += Int(row[column] ?? "") ?? -1_000_000 }
        }
        var want: [String: ExpectedMetricsRow] = [:]
        for row in expected.rows where row.view == "local" { want["\(row.month) \(row.provider) \(row.currency)"] = row }
        var graceCells = 0
        for key in Set(want.keys).union(got.keys).sorted() {
            for (name, column, value) in Self.graceColumns {
                let w = want[key].map(value) ?? 0, g = got[key]?[column] ?? 0
                if w != 0 || g != 0 { graceCells += 1 }
                if w != g { graceMismatches.append("\(key) \(name): expected \(w), report \(g)") }
            }
        }

        // Price-change cohorts, keyed by provider, currency, old and new price.
        var cohortMismatches: [String] = []
        let reported = try ReportSQL.rows(db, "price_change_churn", asOf: asOf, from: first, to: asOf)
        for cohort in expected.priceChangeCohorts where cohort.affected > 0 {
            let row = reported.first {
                $0["provider"] == cohort.provider && $0["currency"] == cohort.currency
                    && $0["old_price_micros"] == String(cohort.oldMicros) && $0["new_price_micros"] == String(cohort.newMicros)
            }
            for (column, value) in Self.cohortColumns where row?[column] != String(value(cohort)) {
                cohortMismatches.append("\(cohort.changeId) \(column): expected \(value(cohort)), report \(row?[column] ?? "no row")")
            }
        }
        let baselines = expected.priceChangeCohorts.map { "\($0.changeId) \($0.baselineChurned)/\($0.baselinePeers)" }
        let reasons = exclusion.summary
        print("billing reports seed \(seed): grace cells \(graceCells), cohorts \(expected.priceChangeCohorts.count), "
              + "baselines (churned/peers) \(baselines.joined(separator: ", ")), excluded subscriptions \(excluded.count) [\(reasons)]")
        #expect(graceCells > 0 && !reported.isEmpty)
        #expect(expected.priceChangeCohorts.contains { $0.baselinePeers > $0.baselineChurned && $0.baselineChurned > 0 })
        #expect(graceMismatches.isEmpty, "\(graceMismatches.count) grace cells differ: \(graceMismatches.prefix(30).joined(separator: "\n"))")
        #expect(cohortMismatches.isEmpty, "\(cohortMismatches.count) cohort cells differ: \(cohortMismatches.joined(separator: "\n"))")
    }
}

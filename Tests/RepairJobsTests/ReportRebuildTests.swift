import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// The reports' acceptance against generated worlds: at three seeds, after the nightly chain, Reports/mrr_bridge.sql
/// (both views), Reports/mrr.sql and Reports/refunds.sql (aggregated to the expected cells' grain) equal the world's
/// expected metrics cell by cell, except for the subscriptions whose injected fault the chain cannot reach, which are
/// left out of both sides and counted by reason; the bridge identity holds on every row, the per-account movements sum
/// exactly to the bridge, no rate is missing and nothing leaks entitlement; issue 30's reports equal the world's
/// lifecycle and cohort values (LifecycleWorldComparison).
@Suite(.serialized) struct ReportRebuildTests {
    /// The bridge columns compared in both views, with the expected row's value.
    static let bridgeColumns: [(String, @Sendable (ExpectedMetricsRow) -> Int64)] = [
        ("mrr_micros", { $0.mrrMicros }), ("start_mrr_micros", { $0.startMrrMicros }), ("fx_micros", { $0.fxMicros }),
        ("new_micros", { $0.newMicros }), ("expansion_micros", { $0.expansionMicros }),
        ("contraction_micros", { $0.contractionMicros }), ("churn_micros", { $0.churnMicros }),
        ("reactivation_micros", { $0.reactivationMicros }), ("new_count", { Int64($0.newCount) }),
        ("expansion_count", { Int64($0.expansionCount) }), ("contraction_count", { Int64($0.contractionCount) }),
        ("churn_count", { Int64($0.churnCount) }), ("reactivation_count", { Int64($0.reactivationCount) }),
        ("paying_accounts_count", { Int64($0.payingSubscribers) }),
    ]

    /// The local-only columns compared from mrr.sql and refunds.sql.
    static let localColumns: [(String, @Sendable (ExpectedMetricsRow) -> Int64)] = [
        ("paying_subscribers", { Int64($0.payingSubscribers) }),
        ("refunds_by_refund_month_count", { Int64($0.refundsByRefundMonthCount ?? 0) }),
        ("refunds_by_refund_month_micros", { $0.refundsByRefundMonthMicros ?? 0 }),
        ("chargebacks_count", { Int64($0.chargebacksCount ?? 0) }), ("chargebacks_micros", { $0.chargebacksMicros ?? 0 }),
        ("refunds_by_charge_month_count", { Int64($0.refundsByChargeMonthCount ?? 0) }),
        ("refunds_by_charge_month_micros", { $0.refundsByChargeMonthMicros ?? 0 }),
        ("family_revocations", { Int64($0.familyRevocations ?? 0) }),
    ]

    @Test(arguments: [91, 7, 2026] as [UInt64])
    func theReportsEqualTheWorldsExpectedMetrics(seed: UInt64) throws {
        var options = WorldOptions(seed: seed, subscriptions: 1_500, months: 8, testShare: 0.04)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.03) })
        let harness = try RequeryHarness(name: "report_rebuild_\(seed)", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        for step in NightlyChainRun(harness: harness, asOf: options.asOf).run(runKey: "rebuild") {
            #expect(step.code == .succeeded, "\(step.name): \(step.summary)")
        }
        let asOf = ISO8601DateFormatter().string(from: options.asOf)
        let leaks = try ReportSQL(asOf: asOf, firstMonth: asOf, lastMonth: asOf).rows("entitlement_leakage", db)
        let leaked = try leaks.prefix(10).map { try "\($0.decode(String.self, "subscription_id")) \($0.decode(String.self, "state"))" }
        #expect(leaks.isEmpty, "entitlement leakage after the chain: \(leaks.count) \(leaked)")

        // Unreachable faults: the world's own list and the chain's documented limits, by subscription and reason.
        let exclusion = try UnreachableFaultExclusion.apply(harness.world, database: db, asOf: options.asOf)
        let excluded = exclusion.subscriptions

        let expected = WorldWriter.expectedMetrics(harness.world, excluding: excluded)
        let report = ReportSQL(asOf: asOf, firstMonth: (expected.months.first ?? "") + "-01T00:00:00Z", lastMonth: asOf)
        #expect(try report.rows("fx_missing", db).isEmpty, "the world loads every rate the reports need")

        let bridge = try report.bridge(db)
        var mismatches: [String] = [], compared = 0
        func compare(_ key: String, _ column: String, _ want: Int64, _ got: Int64) {
            compared += 1
            if want != got { mismatches.append("\(key) \(column): expected \(want), report \(got)") }
        }
        var wanted: [String: ExpectedMetricsRow] = [:]
        for row in expected.rows { wanted["\(row.month) \(row.provider) \(row.view) \(row.currency)"] = row }
        for key in Set(wanted.keys).union(bridge.keys).sorted() {
            for (column, value) in Self.bridgeColumns { compare(key, column, wanted[key].map(value) ?? 0, bridge[key]?[column] ?? 0) }
            if let cell = bridge[key] { #expect(ReportSQL.bridgeHolds(cell), "bridge identity at \(key)") }
        }

        let local = try localCells(report, db)
        let wantedLocal = wanted.filter { $0.value.view == "local" }
        for key in Set(wantedLocal.keys).union(local.keys).sorted() {
            for (column, value) in Self.localColumns {
                compare(key, column, wantedLocal[key].map(value) ?? 0, local[key]?[column] ?? 0)
            }
            // mrr.sql rounds each finer cell once: its rows add up to the bridge's MRR within half a micro per row.
            let slack = ((local[key]?["mrr_rows"] ?? 0) + 1) / 2
            let difference = abs((local[key]?["mrr_micros"] ?? 0) - (wantedLocal[key]?.mrrMicros ?? 0))
            #expect(difference <= slack, "mrr.sql at \(key): off by \(difference) over \(local[key]?["mrr_rows"] ?? 0) rows")
        }
        try checkMovementsSumToTheBridge(report, db, bridge)
        // Issue 30's reports: subscribers, trial conversion, plan changes, cohorts and the KPIs' MRR and active counts.
        let undated = try LifecycleWorldComparison.requeryDatedSwitches(db)
        try LifecycleWorldComparison.leaveOut(undated, db)
        let lifecycle = try LifecycleWorldComparison.compare(
            WorldWriter.expectedMetrics(harness.world, excluding: excluded.union(undated)), db: db, asOf: asOf, from: report.firstMonth)
        print("report rebuild seed \(seed): lifecycle cells \(lifecycle.cells), differing \(lifecycle.mismatches.count), "
              + "auto-renew switch dated by a re-query \(undated.count)")
        #expect(lifecycle.cells > 100)
        #expect(lifecycle.mismatches.isEmpty,
                "\(lifecycle.mismatches.count) lifecycle cells differ: \(lifecycle.mismatches.prefix(40).joined(separator: "\n"))")

        let reasons = exclusion.summary
        print("report rebuild seed \(seed): cells \(compared), equal \(compared - mismatches.count), "
              + "excluded subscriptions \(excluded.count) [\(reasons)]")
        #expect(compared > 0 && bridge.contains { $0.key.contains(" reporting USD") && $0.value["mrr_micros"] ?? 0 > 0 })
        #expect(mismatches.isEmpty, "\(mismatches.count) cells differ: \(mismatches.prefix(40).joined(separator: "\n"))")
    }

    /// mrr.sql and refunds.sql summed to month × provider × local × currency.
    private func localCells(_ report: ReportSQL, _ db: PostgresConnection) throws -> [String: [String: Int64]] {
        var cells: [String: [String: Int64]] = [:]
        for row in try report.rows("mrr", db) {
            let key = "\(try row.decode(String.self, "month")) \(try row.decode(String.self, "provider")) local \(try row.decode(String.self, "currency"))"
            cells[key, default: [:]]["paying_subscribers", default: 0] += try row.decode(Int64.self, "paying_subscribers")
            cells[key, default: [:]]["mrr_micros", default: 0] += try row.decode(Int64.self, "mrr_micros")
            cells[key, default: [:]]["mrr_rows", default: 0] += 1
        }
        for row in try report.rows("refunds", db) {
            let key = "\(try row.decode(String.self, "month")) \(try row.decode(String.self, "provider")) local \(try row.decode(String.self, "currency"))"
            let kind = try row.decode(String.self, "refund_kind"), byRefund = try row.decode(String.self, "view") == "by_refund_month"
            let count = try row.decode(Int64.self, "refunds_count"), micros = try row.decode(Int64.self, "refunds_micros")
            switch (kind, byRefund) {
            case ("FAMILY_REVOKE", true): cells[key, default: [:]]["family_revocations", default: 0] += count
            case ("FAMILY_REVOKE", false): break
            case (_, true):
                cells[key, default: [:]]["refunds_by_refund_month_count", default: 0] += count
                cells[key, default: [:]]["refunds_by_refund_month_micros", default: 0] += micros
                if kind == "CHARGEBACK" {
                    cells[key, default: [:]]["chargebacks_count", default: 0] += count
                    cells[key, default: [:]]["chargebacks_micros", default: 0] += micros
                }
            case (_, false):
                cells[key, default: [:]]["refunds_by_charge_month_count", default: 0] += count
                cells[key, default: [:]]["refunds_by_charge_month_micros", default: 0] += micros
            }
        }
        return cells
    }

    /// Property: per month, provider, currency and movement, the exact amounts of mrr_movements.sql, divided by 12 (local)
    /// or multiplied by the month's rate (reporting) and rounded once, are the bridge's cells; the rows are its counts.
    private func checkMovementsSumToTheBridge(_ report: ReportSQL, _ db: PostgresConnection,
                                              _ bridge: [String: [String: Int64]]) throws {
        var local: [String: Int128] = [:], reporting: [String: Int128] = [:], counts: [String: Int64] = [:]
        for row in try report.rows("mrr_movements", db) {
            let month = try row.decode(String.self, "month"), provider = try row.decode(String.self, "provider")
            let currency = try row.decode(String.self, "currency"), movement = try row.decode(String.self, "movement")
            let amount = Int128(try row.decode(Int64.self, "amount_twelfths"))
            let rate = try ReportSQL.scaledRate(row.decode(String.self, "rate_to_reporting"))
            #expect(rate != nil, "a rate for \(month) \(currency)")
            local["\(month) \(provider) local \(currency) \(movement)", default: 0] += amount
            reporting["\(month) \(provider) reporting USD \(movement)", default: 0] += amount * (rate ?? 0)
            counts["\(month) \(provider) local \(currency) \(movement)", default: 0] += 1
            counts["\(month) \(provider) reporting USD \(movement)", default: 0] += 1
        }
        var checked = 0
        for (key, cell) in bridge {
            for movement in ["new", "expansion", "contraction", "churn", "reactivation"] {
                let sums = key.contains(" reporting ") ? reporting : local
                let denominator: Int128 = key.contains(" reporting ") ? 12_000_000_000_000 : 12
                let summed = ReportSQL.halfEven(sums["\(key) \(movement)"] ?? 0, denominator)
                #expect(Int64(summed) == cell["\(movement)_micros"], "movements sum at \(key) \(movement)")
                #expect(counts["\(key) \(movement)"] ?? 0 == cell["\(movement)_count"], "movement rows at \(key) \(movement)")
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}

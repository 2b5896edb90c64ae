import Foundation
import Postgres
import WorldGen

/// Issue 30's reports against a generated world's expected values (ExpectedMetrics.lifecycle and .cohorts), each
/// aggregated to the grain the world computes: subscribers and trial conversion per month × provider (over products,
/// countries and currencies), plan changes per month × provider × type, cohorts per start month × month × provider ×
/// currency, and the KPIs' MRR and active subscribers per month × provider.
enum LifecycleWorldComparison {
    /// The world's state names and the subscribers report's columns.
    static let states = [("trialing", "trialing_count"), ("paying", "paying_count"), ("grace", "grace_count"),
                         ("billingRetry", "billing_retry_count"), ("paused", "paused_count"),
                         ("cancelledPaidThrough", "cancelled_paid_through_count")]
    /// The world's trial outcomes and the trial report's columns.
    static let outcomes = [("started", "trials_count"), ("convertedInTrial", "converted_in_trial_count"),
                           ("convertedAfterRetry", "converted_after_retry_count"), ("cancelled", "cancelled_count"),
                           ("failed", "failed_count"), ("open", "open_count")]

    /// Subscriptions whose auto-renew switch the history holds only from a re-query: a `CANCELED` or `RESTARTED` row
    /// without a charge and without a notification, dated when the re-query learned it (the store's state says the
    /// switch is off, not when it was turned off), where the world knows the instant. Their `paying` and
    /// `cancelled_paid_through` months cannot agree; the comparison leaves them out of both sides (`leaveOut`).
    static func requeryDatedSwitches(_ db: PostgresConnection) throws -> Set<String> {
        Set(try db.query("""
            SELECT DISTINCT subscription_id::text AS id FROM billing_transaction
            WHERE event_type IN ('CANCELED', 'RESTARTED') AND amount_micros IS NULL AND inbound_event_id IS NULL
            """).rows.map { try $0.decode(String.self, "id") })
    }

    /// Removes the history rows of `subscriptions` (after every other comparison of the test has read them).
    static func leaveOut(_ subscriptions: Set<String>, _ db: PostgresConnection) throws {
        guard !subscriptions.isEmpty else { return }
        try db.execute("DELETE FROM billing_transaction WHERE subscription_id::text = ANY($1::text[])",
                       ["{" + subscriptions.sorted().joined(separator: ",") + "}"])
    }

    /// Every disagreement (empty when all agree) and how many cells were compared.
    static func compare(_ expected: ExpectedMetrics, db: PostgresConnection, asOf: String, from: String) throws -> (mismatches: [String], cells: Int) {
        var want: [String: Int64] = [:], got: [String: Int64] = [:]
        func add(_ table: inout [String: Int64], _ key: String, _ value: Int64) { table[key, default: 0] += value }
        func number(_ row: [String: String], _ column: String) -> Int64 { Int64(row[column] ?? "") ?? -1_000_000 }
        for row in expected.lifecycle {
            for (state, column) in states { add(&want, "subscribers \(row.month) \(row.provider) \(column)", Int64(row.states[state] ?? 0)) }
            for (outcome, column) in outcomes { add(&want, "trials \(row.month) \(row.provider) \(column)", Int64(row.trials[outcome] ?? 0)) }
            for (type, count) in row.planChanges { add(&want, "plan changes \(row.month) \(row.provider) \(type)", Int64(count)) }
            add(&want, "kpis \(row.month) \(row.provider) active_count", Int64(states.reduce(0) { $0 + (row.states[$1.0] ?? 0) }))
        }
        for cell in expected.cohorts {
            let key = "cohorts \(cell.cohortMonth) \(cell.month) \(cell.provider) \(cell.currency)"
            add(&want, key + " cohort_subscribers", Int64(cell.customers))
            add(&want, key + " retained_subscribers", Int64(cell.retained))
            add(&want, key + " net_revenue_micros", cell.netRevenueMicros)
        }
        for row in expected.rows where row.view == "reporting" { add(&want, "kpis \(row.month) \(row.provider) mrr_micros", row.mrrMicros) }

        for row in try ReportSQL.rows(db, "subscribers", asOf: asOf, from: from, to: asOf) {
            for (_, column) in states { add(&got, "subscribers \(row["month"] ?? "") \(row["provider"] ?? "") \(column)", number(row, column)) }
        }
        for row in try ReportSQL.rows(db, "trial_conversion", asOf: asOf, from: from, to: asOf) where row["view"] == "cohort" {
            for (_, column) in outcomes { add(&got, "trials \(row["month"] ?? "") \(row["provider"] ?? "") \(column)", number(row, column)) }
        }
        for row in try ReportSQL.rows(db, "plan_change_mix", asOf: asOf, from: from, to: asOf) {
            add(&got, "plan changes \(row["month"] ?? "") \(row["provider"] ?? "") \(row["change_type"] ?? "")", number(row, "changes_count"))
        }
        for row in try ReportSQL.rows(db, "cohorts", asOf: asOf, from: from, to: asOf) {
            let key = "cohorts \(row["cohort_month"] ?? "") \(row["month"] ?? "") \(row["provider"] ?? "") \(row["currency"] ?? "")"
            for column in ["cohort_subscribers", "retained_subscribers", "net_revenue_micros"] { add(&got, key + " " + column, number(row, column)) }
        }
        for row in try ReportSQL.rows(db, "kpis", asOf: asOf, from: from, to: asOf) where row["provider"] != "ALL" {
            for column in ["active_count", "mrr_micros"] { add(&got, "kpis \(row["month"] ?? "") \(row["provider"] ?? "") \(column)", number(row, column)) }
        }
        var mismatches: [String] = [], cells = 0
        for key in Set(want.keys).union(got.keys).sorted() {
            let w = want[key] ?? 0, g = got[key] ?? 0
            if w != 0 || g != 0 { cells += 1 }
            if w != g { mismatches.append("\(key): expected \(w), report \(g)") }
        }
        return (mismatches, cells)
    }
}

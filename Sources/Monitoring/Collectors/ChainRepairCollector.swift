import Foundation
import Postgres

/// What the newest completed run of each repair job found wrong and repaired, by job and repair.
///
/// Several faults cannot be seen in the database alone before a store is asked: a notification Apple sent that never
/// arrived, a status, expiry or price only a re-query reveals, a Google void not yet applied. The chain finds them;
/// this family publishes what it found, from the `job_run.counts` of each job's newest completed (succeeded or
/// threshold_breached, not dry-run) run with an as-of at or before this one. Together with the database-visible
/// counts read before the chain (failed webhooks, unacknowledged purchases, unapplied revocations) it accounts for
/// every kind of fault the pipeline repairs.
enum ChainRepairCollector {
    /// Each series: the job, the repair label, and the `job_run.counts` key it is read from.
    static let repairs: [(job: String, repair: String, count: String)] = [
        ("replay-events", "event_replayed", "projected"),
        ("recover-notifications", "notification_recovered", "missing"),
        ("sweep-voided", "void_applied", "applied"),
        ("ack-rescue", "acknowledgement_recorded", "repaired"),
        ("ack-rescue", "acknowledged", "acknowledged"),
        ("requery-at-risk", "subscription_repaired", "repaired"),
    ]

    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let rows = try input.database.query("""
            SELECT DISTINCT ON (job_name) job_name, counts::text AS counts
            FROM job_run
            WHERE job_name = ANY($1::text[]) AND status IN ('succeeded', 'threshold_breached') AND NOT dry_run AND as_of <= $2
            ORDER BY job_name, as_of DESC, id DESC
            """, [PostgresTextArray(Array(Set(repairs.map(\.job))).sorted()), input.asOf]).rows
        var counts: [String: [String: Double]] = [:]
        for row in rows {
            let text = try row.decode(String.self, "counts")
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            counts[try row.decode(String.self, "job_name")] = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }
        let samples = repairs.map { MetricSample([("job", $0.job), ("repair", $0.repair)], counts[$0.job]?[$0.count] ?? 0) }
        return [MetricFamily(name: "iap_chain_repairs",
                             help: "What the newest completed run of each repair job found wrong and repaired (from its job_run counts), by job and repair.",
                             samples: samples)]
    }
}

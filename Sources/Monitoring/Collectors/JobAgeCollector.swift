import Foundation
import Postgres

/// How long ago each job last completed, measured between as-of instants.
///
/// A run counts as completed when it is not a dry run and ended `succeeded` or `threshold_breached` (the work was
/// done; only a monitored count was high). The age is the as-of instant minus the newest completed run's `as_of`
/// (never negative); a job with runs in `job_run` but none completed reports `+Inf`.
enum JobAgeCollector {
    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let rows = try input.database.query("""
            SELECT job_name,
                   max(as_of) FILTER (WHERE status IN ('succeeded', 'threshold_breached') AND NOT dry_run) AS last_completed
            FROM job_run WHERE as_of <= $1
            GROUP BY job_name ORDER BY job_name
            """, [input.asOf]).rows
        let samples = try rows.map { row -> MetricSample in
            let job = try row.decode(String.self, "job_name")
            let age = try row.decodeIfPresent(Date.self, "last_completed").map { max(0, input.asOf.timeIntervalSince($0).rounded()) } ?? .infinity
            return MetricSample([("job", job)], age)
        }
        return [MetricFamily(name: "iap_job_last_success_age_seconds",
                             help: "Seconds from the newest completed (succeeded or threshold_breached, not dry-run) run's as-of instant to this as-of instant, per job; +Inf when none completed.",
                             samples: samples)]
    }
}

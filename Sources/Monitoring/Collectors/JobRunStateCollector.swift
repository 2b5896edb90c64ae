import Foundation
import Postgres

/// Runs that did not end normally: `job_run` rows marked `abandoned` (their process died; the next run of any job
/// marks them) over the last 7 days of as-of instants, and how long each job's oldest still-running run has been
/// running (wall clock), so a hung or killed job is visible before its last-success age alarms.
enum JobRunStateCollector {
    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let abandoned = try input.database.query("""
            SELECT job_name, count(*)::float8 AS n FROM job_run
            WHERE status = 'abandoned' AND as_of > $1::timestamptz - interval '7 days' AND as_of <= $1
            GROUP BY job_name ORDER BY job_name
            """, [input.asOf]).rows.map {
            MetricSample([("job", try $0.decode(String.self, "job_name"))], try $0.decode(Double.self, "n"))
        }
        // Its own run is running while it counts: left out.
        let running = try input.database.query("""
            SELECT job_name, extract(epoch FROM clock_timestamp() - min(started_at))::float8 AS seconds FROM job_run
            WHERE status = 'running' AND backend_pid <> pg_backend_pid()
            GROUP BY job_name ORDER BY job_name
            """).rows.map {
            MetricSample([("job", try $0.decode(String.self, "job_name"))], max(0, try $0.decode(Double.self, "seconds").rounded()))
        }
        return [
            MetricFamily(name: "iap_job_runs_abandoned_7d",
                         help: "job_run rows marked abandoned (the process ended without finishing) with an as-of in the 7 days up to this as-of, per job.",
                         samples: abandoned),
            MetricFamily(name: "iap_job_running_seconds",
                         help: "Wall-clock seconds the oldest still-running run of each job has been running (other than this one).",
                         samples: running),
        ]
    }
}

import Foundation
import Postgres

/// What `job_run` says about earlier runs of a job.
public enum JobRunHistory {
    /// The `--as-of` of the newest successful, non-dry run of `job`, or nil before the first one.
    /// Incremental jobs (notification recovery, voided-purchase sweeps) start their window from it.
    public static func lastSuccessfulAsOf(_ job: String, in database: PostgresConnection) throws -> Date? {
        try database.query("""
            SELECT max(as_of) AS t FROM job_run WHERE job_name = $1 AND status = 'succeeded' AND NOT dry_run
            """, [job]).first?.decodeIfPresent(Date.self, "t")
    }
}

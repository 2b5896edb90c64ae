import Foundation
import Postgres

/// Records each run as a `job_run` row: inserted at the start, completed at the end.
struct JobRunRecorder {
    let database: PostgresConnection

    /// True once the pipeline schema exists (before the first migration it does not).
    func isAvailable() throws -> Bool {
        try database.query("SELECT to_regclass('job_run') IS NOT NULL AS present").first?.decode(Bool.self, "present") ?? false
    }

    /// Marks `running` rows whose connection is gone as `abandoned` (finished now, with the reason in `error`): no
    /// backend with the row's `backend_pid` has been alive since the run started, so its process was killed or the
    /// server restarted under it. Returns how many rows it marked; 0 before the status exists (migration 0020).
    func markAbandoned() throws -> Int {
        guard try database.query("""
            SELECT pg_get_constraintdef(oid) LIKE '%abandoned%' AS known FROM pg_constraint WHERE conname = 'job_run_status_check'
            """).first?.decode(Bool.self, "known") == true else { return 0 }
        return try database.execute("""
            UPDATE job_run r SET status = 'abandoned', finished_at = clock_timestamp(),
                   error = 'abandoned: its database connection (backend ' || r.backend_pid || ') ended without the run finishing; '
                           || 'the process was killed or the server restarted'
            WHERE r.status = 'running'
              AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = r.backend_pid AND a.backend_start <= r.started_at)
            """)
    }

    /// Inserts the running row and returns its id.
    func start(job: String, startedAt: Date, asOf: Date, arguments: [String], host: String, pid: Int32) throws -> Int64 {
        let sql = """
            INSERT INTO job_run (job_name, started_at, as_of, dry_run, arguments, host, pid)
            VALUES ($1, $2, $3, false, $4::jsonb, $5, $6) RETURNING id
            """
        let argumentsJSON = try PostgresJSON(encoding: arguments)
        let row = try database.query(sql, [job, startedAt, asOf, argumentsJSON, host, pid]).first
        return try row?.decode(Int64.self, "id") ?? 0
    }

    /// Completes the row with the outcome, counts and error text.
    func finish(id: Int64, status: String, counts: [String: Int], error: String?) throws {
        let sql = """
            UPDATE job_run SET status = $2, finished_at = clock_timestamp(), counts = $3::jsonb, error = $4
            WHERE id = $1
            """
        try database.execute(sql, [id, status, try PostgresJSON(encoding: counts), error])
    }

    /// Describes the run that holds `lockName`, from `job_run` when it has a row, else from `pg_stat_activity`.
    func holder(of lockName: String, job: String) throws -> LockHolder {
        guard let backend = try database.advisoryLockHolder(lockName) else {
            return LockHolder(jobName: job, pid: nil, host: nil, startedAt: nil, backendPID: nil)
        }
        if try isAvailable(), let row = try database.query("""
            SELECT pid, host, started_at FROM job_run
            WHERE backend_pid = $1 AND job_name = $2 AND status = 'running' ORDER BY id DESC LIMIT 1
            """, [backend, job]).first {
            return LockHolder(jobName: job, pid: try row.decode(Int32.self, "pid"), host: try row.decode(String.self, "host"),
                              startedAt: PostgresTimestamp.iso8601(try row.decode(Date.self, "started_at")), backendPID: backend)
        }
        let activity = try database.query(
            "SELECT application_name, backend_start FROM pg_stat_activity WHERE pid = $1", [backend]).first
        let identity = try activity.flatMap { ApplicationName.parse(try $0.decode(String.self, "application_name")) }
        let started = try activity.map { PostgresTimestamp.iso8601(try $0.decode(Date.self, "backend_start")) }
        return LockHolder(jobName: job, pid: identity?.pid, host: identity?.host, startedAt: started, backendPID: backend)
    }
}

/// The `application_name` a job connects with, `iap:<job>:<pid>@<host>`, so lock holders can be named.
enum ApplicationName {
    static func make(job: String, pid: Int32, host: String) -> String {
        String("iap:\(job):\(pid)@\(host)".prefix(63))
    }

    static func parse(_ text: String) -> (pid: Int32, host: String)? {
        let parts = text.split(separator: ":", maxSplits: 2)
        guard parts.count == 3, parts[0] == "iap", let at = parts[2].firstIndex(of: "@"),
              let pid = Int32(parts[2][..<at]) else { return nil }
        return (pid, String(parts[2][parts[2].index(after: at)...]))
    }
}

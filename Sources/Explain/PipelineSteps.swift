import Foundation
import Postgres

/// What the pipeline itself did to the subscription: `drift_event` rows (a re-query found the database different
/// from the store) and `store_query` rows (each store API attempt about it).
enum PipelineSteps {
    static func drift(_ id: String, asOf: Date, mask: IdentifierMask, database: PostgresConnection) throws -> [TimelineEntry] {
        try database.query("""
            SELECT kind, field, database_value, store_value, detected_at, repaired, job_run_id
            FROM drift_event WHERE subscription_id = $1::uuid AND detected_at <= $2 ORDER BY detected_at, id
            """, [id, asOf]).rows.map { row in
            var details: [(String, String)] = [("field", try row.decode(String.self, "field")),
                                               ("database", mask.scrub(try row.decodeIfPresent(String.self, "database_value") ?? "null")),
                                               ("store", mask.scrub(try row.decodeIfPresent(String.self, "store_value") ?? "null")),
                                               ("repaired", try row.decode(Bool.self, "repaired") ? "yes" : "no")]
            if let run = try row.decodeIfPresent(Int64.self, "job_run_id") { details.append(("job_run", String(run))) }
            let detected = try row.decode(Date.self, "detected_at")
            return TimelineEntry(at: detected, recordedAt: detected, source: "drift_event",
                                 event: "DRIFT_" + (try row.decode(String.self, "kind")).uppercased(), details: details)
        }
    }

    static func storeQueries(_ id: String, asOf: Date, mask: IdentifierMask, database: PostgresConnection) throws -> [TimelineEntry] {
        try database.query("""
            SELECT q.endpoint, q.outcome, q.http_status, q.store_error_code, q.latency_ms, q.attempted_at, q.job_run_id, r.job_name
            FROM store_query q LEFT JOIN job_run r ON r.id = q.job_run_id
            WHERE q.subscription_id = $1::uuid AND q.attempted_at <= $2 ORDER BY q.attempted_at, q.id
            """, [id, asOf]).rows.map { row in
            var details: [(String, String)] = [("endpoint", mask.scrub(try row.decode(String.self, "endpoint")))]
            if let status = try row.decodeIfPresent(Int64.self, "http_status") { details.append(("http_status", String(status))) }
            if let code = try row.decodeIfPresent(String.self, "store_error_code") { details.append(("store_error", code)) }
            details.append(("latency_ms", String(try row.decode(Int64.self, "latency_ms"))))
            if let job = try row.decodeIfPresent(String.self, "job_name") { details.append(("job", job)) }
            if let run = try row.decodeIfPresent(Int64.self, "job_run_id") { details.append(("job_run", String(run))) }
            let attempted = try row.decode(Date.self, "attempted_at")
            return TimelineEntry(at: attempted, recordedAt: attempted, source: "store_query",
                                 event: "STORE_QUERY_" + (try row.decode(String.self, "outcome")).uppercased(), details: details)
        }
    }
}

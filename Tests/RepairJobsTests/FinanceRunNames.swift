import Foundation
import Postgres

/// Names for the finance jobs' sequence ids, so two runs over one world compare row for row: a `reconciliation_run`
/// is named by its provider, period and whether it is current, a `period_close` by its month. A killed transaction
/// still advances a sequence, so the raw ids of a rerun differ from an uninterrupted run's.
enum FinanceRunNames {
    /// `digest` with `run_id`, `superseded_by` and `close_id` values replaced by names, and with what a rerun
    /// legitimately adds taken out when `dropSuperseded` (reconcile: a rerun of a period supersedes the current run,
    /// by design; the superseded runs, their items and the `supersede` audit rows are left out, and the current run
    /// must equal the uninterrupted run's). `wallClock` lists `table.column` values written from the clock
    /// (close-period: `period_close.closed_at` and the reconciliation's `known_at`, which is the close instant).
    static func normalized(_ digest: StateDigest, _ database: PostgresConnection, dropSuperseded: Bool,
                           wallClock: [String] = []) throws -> StateDigest {
        var runs: [String: String] = [:], closes: [String: String] = [:]
        for row in try database.query("""
            SELECT id::text AS id, provider || ':' || period || CASE WHEN superseded_by IS NULL THEN ':current' ELSE ':superseded' END AS name
            FROM reconciliation_run
            """).rows {
            runs[try row.decode(String.self, "id")] = "reconciliation_run:" + (try row.decode(String.self, "name"))
        }
        for row in try database.query("""
            SELECT id::text AS id, period || CASE WHEN reopened_at IS NULL THEN ':open' ELSE ':reopened' END AS name FROM period_close
            """).rows {
            closes[try row.decode(String.self, "id")] = "period_close:" + (try row.decode(String.self, "name"))
        }
        let references = try [("run_id", runs), ("superseded_by", runs), ("close_id", closes)].map { key, names in
            (key, names, try Regex("\"\(key)\":([0-9]+)", as: (Substring, Substring).self))
        }
        let clockColumns = try wallClock.map { entry in
            (entry, try Regex("\"\(entry.split(separator: ".").last ?? "")\":(\"[^\"]*\"|null),?", as: (Substring, Substring).self))
        }
        func named(_ row: String) -> String {
            var text = row
            for (key, names, pattern) in references {
                text = text.replacing(pattern) { match in "\"\(key)\":\"\(names[String(match.1)] ?? "unknown#" + match.1)\"" }
            }
            return text
        }
        var result = digest
        for table in ["reconciliation_run", "reconciliation_item", "period_lock", "period_snapshot", "period_close"] {
            result = result.mappingRows(of: table) { row in
                var text = named(row)
                if dropSuperseded, text.contains(":superseded\"") { return nil }
                if dropSuperseded, table == "reconciliation_run", !text.contains("\"superseded_by\":null") { return nil }
                for (entry, pattern) in clockColumns where entry.hasPrefix(table + ".") { text = text.replacing(pattern, with: "") }
                return text
            }
        }
        // Audit rows name a run or close by its raw id (entity_id); a rerun's supersede leaves one more.
        return result.mappingRows(of: "audit_log") { row in
            guard row.contains("\"entity\":\"reconciliation_run\"") || row.contains("\"entity\":\"period_close\"") else { return row }
            if dropSuperseded, row.contains("\"action\":\"supersede\"") { return nil }
            return row.replacing(/"entity_id":"[0-9]+",?/, with: "")
                .replacing(/"by":[0-9]+/, with: "\"by\":\"run\"")
        }
    }

    /// `digest` without the `job_run_id` retention writes into its audit rows' detail (run bookkeeping: a killed run
    /// took an id before its rerun did).
    static func withoutAuditRunIDs(_ digest: StateDigest) -> StateDigest {
        digest.mappingRows(of: "audit_log") { $0.replacing(/"job_run_id":[0-9]+,?/, with: "") }
    }
}

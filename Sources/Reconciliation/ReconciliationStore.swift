import Crypto
import Foundation
import JobKit
import Postgres

/// Writes a run and its items; a rerun of the same provider and period supersedes the current run (recorded in
/// `superseded_by` and `audit_log`), in one transaction.
public struct ReconciliationStore {
    let database: PostgresConnection
    let actor: String

    /// Creates a store writing through `database` as `actor`.
    public init(database: PostgresConnection, actor: String) {
        self.database = database
        self.actor = actor
    }

    /// Saves `result` (whose items CSV hashes to `sha256`) in its own transaction; returns the new run id.
    public func save(_ result: ReconciliationResult, sha256: String, jobRunID: Int64?) throws -> Int64 {
        try save(ReconciliationRun(result), items: StoredItems(result.items), sha256: sha256, jobRunID: jobRunID)
    }

    /// Saves a run and its stored items (whose items CSV hashes to `sha256`) in its own transaction; returns the
    /// new run id.
    public func save(_ result: ReconciliationRun, items: StoredItems, sha256: String, jobRunID: Int64?) throws -> Int64 {
        try database.transaction { db in
            try ReconciliationStore(database: db, actor: actor)
                .saveInOpenTransaction(result, items: items, sha256: sha256, jobRunID: jobRunID)
        }
    }

    /// Saves `result` inside the caller's open transaction; returns the new run id.
    public func saveInOpenTransaction(_ result: ReconciliationResult, sha256: String, jobRunID: Int64?) throws -> Int64 {
        try saveInOpenTransaction(ReconciliationRun(result), items: StoredItems(result.items), sha256: sha256, jobRunID: jobRunID)
    }

    /// Saves a run and its stored items inside the caller's open transaction; returns the new run id.
    public func saveInOpenTransaction(_ result: ReconciliationRun, items: StoredItems, sha256: String,
                                      jobRunID: Int64?) throws -> Int64 {
        let db = database
        do {
            let previous = try db.query("""
                SELECT id, content_sha256 FROM reconciliation_run
                WHERE provider = $1 AND period = $2 AND superseded_by IS NULL FOR UPDATE
                """, [result.period.provider.rawValue, result.period.label]).first
            let files = "[" + result.files.map { "{\"id\":\($0.id),\"kind\":\"\($0.kind)\",\"sha256\":\"\($0.sha256)\"}" }
                .joined(separator: ",") + "]"
            // The new id first: the current run is marked superseded (deferred reference) before the new one becomes
            // the current run of its provider and period.
            let id = try db.query("SELECT nextval(pg_get_serial_sequence('reconciliation_run', 'id'))::int8 AS id").first
                .map { try $0.decode(Int64.self, "id") } ?? 0
            if let previous {
                let previousID = try previous.decode(Int64.self, "id")
                _ = try db.execute("UPDATE reconciliation_run SET superseded_by = $1 WHERE id = $2", [id, previousID])
                _ = try db.execute("""
                    INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                    VALUES ($1, 'supersede', 'reconciliation_run', $2, jsonb_build_object('by', $3::int8, 'same_content', $4::boolean))
                    """, [actor, String(previousID), id, try previous.decode(String.self, "content_sha256") == sha256])
            }
            _ = try db.execute("""
                INSERT INTO reconciliation_run (id, provider, period, starts_at, ends_at, known_at, report_files, item_count,
                                                content_sha256, job_run_id)
                VALUES ($1, $2, $3, to_timestamp($4), to_timestamp($5), $6, $7::jsonb, $8, $9, $10)
                """, [id, result.period.provider.rawValue, result.period.label, result.period.start, result.period.end, result.knownAt,
                      files, Int64(items.count), sha256, jobRunID.map { String($0) }])
            _ = try db.copyIn("""
                COPY reconciliation_item (run_id, line, category, grain_key, side, product_id, country, currency, database_currency,
                    report_units, database_units, report_gross_micros, database_gross_micros, variance_micros, store_fee_micros,
                    tax_micros, net_micros, prior_period_adjustment, adjustment_period, detail, unit_count) FROM STDIN
                """) { copy in
                for row in items.stored {
                    let item = row.item
                    try copy.writeRow([String(id), String(row.line), item.category.rawValue, item.grainKey, item.side, item.productId,
                                       item.country, item.currency.isEmpty ? "XXX" : item.currency, item.databaseCurrency,
                                       String(item.reportUnits), String(item.databaseUnits), String(item.reportGross),
                                       String(item.databaseGross), String(item.variance), String(item.storeFee), String(item.tax),
                                       String(item.net), item.priorPeriodAdjustment ? "t" : "f", item.adjustmentPeriod, item.detail,
                                       String(row.unitCount)])
                }
            }
            return id
        }
    }
}

/// Writes files atomically: to a temporary name in the same folder, then put in place with mode 0640 (`OutputFile`).
public enum AtomicFile {
    /// Writes `bytes` to `path` through a temporary file and a rename.
    public static func write(_ bytes: [UInt8], to path: URL) throws {
        let temporary = path.deletingLastPathComponent().appendingPathComponent(".\(path.lastPathComponent).tmp-\(getpid())")
        try FileSystemError.perform("write", temporary.path) { try Data(bytes).write(to: temporary) }
        try OutputFile.place(temporary, at: path)
    }
}

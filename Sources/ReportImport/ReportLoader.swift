import Postgres
import StoreExports

/// What importing one parsed file did.
public enum ReportLoadOutcome: Sendable, Equatable {
    /// A new report: its rows were staged.
    case imported(rows: Int)
    /// The same content was imported before: nothing written.
    case unchanged
    /// A correction: the earlier file's rows were replaced by these.
    case replaced(rows: Int, previousSHA256: String)
}

/// Stages one parsed report in one transaction. A report is its (kind, report key): content the report held before
/// (current or replaced) is a no-op; a new content for a current report replaces that file (rows deleted,
/// `replaced_by` set, `audit_log` entry with both row counts) unless a close in force compared that file
/// (`ClosedPeriodCorrection`) or it has fewer rows than the file it replaces (`ShrinkingReplacement`, the signature of
/// a truncated download, unless `allowShrink`); then nothing is written. Otherwise the file is added.
public struct ReportLoader {
    /// The connection used (the transaction is opened on it).
    public let database: PostgresConnection
    /// `audit_log.actor`.
    public let actor: String
    /// Whether a replacement with fewer rows than the file it replaces is accepted (`--allow-shrink`).
    public let allowShrink: Bool

    /// Creates a loader writing through `database`, auditing as `actor`.
    public init(database: PostgresConnection, actor: String, allowShrink: Bool = false) {
        self.database = database
        self.actor = actor
        self.allowShrink = allowShrink
    }

    /// What `load` would do, without writing (for dry runs).
    public func classify(_ report: ParsedReport) throws -> ReportLoadOutcome {
        if try held(report, database) { return .unchanged }
        if let current = try current(report, lock: false) {
            try refuseClosed(report, previousID: current.id, database)
            try refuseShrinking(report, previous: current)
            return .replaced(rows: report.rowCount, previousSHA256: current.sha)
        }
        return .imported(rows: report.rowCount)
    }

    /// Stages `report` (and, for a payments summary, its exchange rates) in one transaction.
    public func load(_ report: ParsedReport, fxRates: [FXRateRow] = []) throws -> ReportLoadOutcome {
        try database.transaction { db in
            // One importer at a time per report, so two runs cannot both add a current file.
            _ = try db.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["report_file:" + report.identity.key])
            if try held(report, db) { return .unchanged }
            let previous = try current(report, lock: true)
            let id = try db.query("SELECT nextval(pg_get_serial_sequence('report_file', 'id')) AS id").first?.decode(Int64.self, "id") ?? 0
            if let previous {
                try refuseClosed(report, previousID: previous.id, db)
                try refuseShrinking(report, previous: previous)
                _ = try db.execute("DELETE FROM \(StagingCopy.table(report.identity.kind)) WHERE report_file_id = $1", [previous.id])
                _ = try db.execute("UPDATE report_file SET replaced_by = $1 WHERE id = $2", [id, previous.id])
            }
            let identity = report.identity
            _ = try db.execute("""
                INSERT INTO report_file (id, kind, provider, file_name, report_key, content_sha256, period, region, vendor, row_count)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                """, [id, identity.kind.rawValue, identity.provider, report.path.split(separator: "/").last.map(String.init) ?? report.path,
                      identity.key, report.contentSHA256, identity.period, identity.region, identity.vendor, report.rowCount])
            let rows = try StagingCopy.load(report, fileID: id, into: db)
            if !fxRates.isEmpty { _ = try FXRateWriter(database: db, actor: actor).upsert(fxRates) }
            guard let previous else { return .imported(rows: rows) }
            _ = try db.execute("""
                INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                VALUES ($1, 'replace_report_file', 'report_file', $2,
                        jsonb_build_object('report_key', $3::text, 'previous_sha256', $4::text, 'new_sha256', $5::text,
                                           'previous_id', $6::bigint, 'rows', $7::int, 'previous_rows', $8::int,
                                           'allowed_shrink', $9::bool))
                """, [actor, String(id), identity.key, previous.sha, report.contentSHA256, previous.id, rows, Int64(previous.rows),
                      rows < previous.rows])
            return .replaced(rows: rows, previousSHA256: previous.sha)
        }
    }

    /// Throws `ClosedPeriodCorrection` when the file `previousID` is one a close in force compared.
    private func refuseClosed(_ report: ParsedReport, previousID: Int64, _ db: PostgresConnection) throws {
        let name = report.path.split(separator: "/").last.map(String.init) ?? report.path
        if let refusal = try ClosedPeriodCorrection.check(file: name, previousID: previousID, reportKey: report.identity.key, in: db) {
            throw refusal
        }
    }

    /// Throws `ShrinkingReplacement` when `report` has fewer rows than the file it would replace (and shrinking is
    /// not allowed).
    private func refuseShrinking(_ report: ParsedReport, previous: (id: Int64, sha: String, rows: Int, name: String)) throws {
        guard !allowShrink, report.rowCount < previous.rows else { return }
        throw ShrinkingReplacement(file: report.path.split(separator: "/").last.map(String.init) ?? report.path,
                                   replaces: previous.name, reportKey: report.identity.key, rows: report.rowCount,
                                   previousRows: previous.rows)
    }

    /// Whether the report held this content before (its current file or one it replaced).
    private func held(_ report: ParsedReport, _ db: PostgresConnection) throws -> Bool {
        try db.query("SELECT 1 FROM report_file WHERE kind = $1 AND report_key = $2 AND content_sha256 = $3",
                     [report.identity.kind.rawValue, report.identity.key, report.contentSHA256]).first != nil
    }

    /// The current (not replaced) file of the report, locked for the transaction when `lock`.
    private func current(_ report: ParsedReport, lock: Bool) throws -> (id: Int64, sha: String, rows: Int, name: String)? {
        guard let row = try database.query("""
            SELECT id, content_sha256, row_count::int8 AS row_count, file_name FROM report_file WHERE kind = $1 AND report_key = $2 AND replaced_by IS NULL
            """ + (lock ? " FOR UPDATE" : ""), [report.identity.kind.rawValue, report.identity.key]).first else { return nil }
        return (try row.decode(Int64.self, "id"), try row.decode(String.self, "content_sha256"),
                Int(try row.decode(Int64.self, "row_count")), try row.decode(String.self, "file_name"))
    }
}

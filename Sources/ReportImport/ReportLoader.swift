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
/// (current or replaced) is a no-op; a new content for a current report replaces that file (rows deleted — of a Google
/// earnings file its facts, its kept bytes stay —, `replaced_by` set, `audit_log` entry with both row counts) unless a close in force compared that file
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
        if try held(report.identity, sha: report.contentSHA256, database) { return .unchanged }
        if let current = try current(report.identity, lock: false) {
            let name = Self.fileName(report.path)
            try refuseClosed(name, report.identity, previousID: current.id, database)
            try refuseShrinking(name, report.identity, rows: report.rowCount, previous: current)
            return .replaced(rows: report.rowCount, previousSHA256: current.sha)
        }
        return .imported(rows: report.rowCount)
    }

    /// Stages `report` (and, for a payments summary, its exchange rates) in one transaction.
    public func load(_ report: ParsedReport, fxRates: [FXRateRow] = []) throws -> ReportLoadOutcome {
        if case .googleEarnings = report.content {
            return try loadGoogleEarnings(report.path, knownSHA256: report.contentSHA256).outcome
        }
        if Self.stagesWhileReading(report.identity.kind) {
            return try loadStreamed(report.path, kind: report.identity.kind, knownSHA256: report.contentSHA256)
        }
        return try stage(report.identity, path: report.path, unchanged: { try held(report.identity, sha: report.contentSHA256, $0) }) { db, id in
            let rows = try StagingCopy.load(report, fileID: id, into: db)
            if !fxRates.isEmpty { _ = try FXRateWriter(database: db, actor: actor).upsert(fxRates) }
            return (report.contentSHA256, rows, nil)
        }
    }

    /// Stages the Google earnings file at `path` while it is read, with the month's exchange rates, in one
    /// transaction. `kept`, the file's bytes' hash and size taken before (a rerun's first look,
    /// `KeptReportFile.firstLook`), makes a file whose bytes the report held before a no-op without reading it
    /// further, and spares the staging a read; without it (or with bytes not held) the content is staged, and
    /// content held before (the same CSV in another zip) is found then and rolled back. A report staged before
    /// migration 0033 has no kept bytes: for it the first look is at the content's hash, as it was then.
    /// `knownSHA256`, the content's hash from a read before, makes content held before a no-op as well.
    /// Returns the outcome and the rates written (none when unchanged).
    public func loadGoogleEarnings(_ path: String, kept: KeptReportFile? = nil,
                                   knownSHA256: String? = nil) throws -> (outcome: ReportLoadOutcome, rates: Int) {
        let identity = ReportIdentity.of(Self.fileName(path), kind: .googleEarnings)
        var rates = 0
        let unchanged: (PostgresConnection) throws -> Bool = { db in
            if let knownSHA256 { return try held(identity, sha: knownSHA256, db) }
            guard let kept else { return false }
            if try db.query("SELECT 1 FROM report_file WHERE kind = $1 AND report_key = $2 AND kept_sha256 = $3::bytea",
                            [identity.kind.rawValue, identity.key, KeptReportFile.hexLiteral(kept.sha256)]).first != nil {
                return true
            }
            guard try db.query("SELECT 1 FROM report_file WHERE kind = $1 AND report_key = $2 AND kept_sha256 IS NULL",
                               [identity.kind.rawValue, identity.key]).first != nil else { return false }
            return try ReportStream.sha256(path).map { try held(identity, sha: $0, db) } ?? false
        }
        let outcome = try stage(identity, path: path, unchanged: unchanged) { db, id in
            let staged = try GoogleEarningsStaging.stage(path, fileID: id, kept: kept, into: db)
            let fx = staged.tally.rates.rates(month: identity.period)
            if !fx.isEmpty { _ = try FXRateWriter(database: db, actor: actor).upsert(fx) }
            rates = fx.count
            return (staged.tally.sha256, staged.tally.rows, staged.kept)
        }
        return (outcome, outcome == .unchanged ? 0 : rates)
    }

    /// Whether `kind` is staged by `loadStreamed`, while it is read: Apple's Sales and Trends reports and Google's
    /// estimated sales.
    public static func stagesWhileReading(_ kind: StoreReportKind) -> Bool {
        kind == .googleEstimatedSales || AppleReportStaging.streams(kind)
    }

    /// Stages the report at `path` of a kind `stagesWhileReading` (Apple's Subscriber, Subscription, Subscription
    /// Event, Summary Sales: `AppleReportStaging`; Google estimated sales: `GoogleEstimatedSalesStaging`) while it is
    /// read, in one transaction; `knownSHA256`, a hash taken before (a rerun's first look), makes an unchanged file a
    /// no-op without reading it again.
    public func loadStreamed(_ path: String, kind: StoreReportKind, knownSHA256: String? = nil) throws -> ReportLoadOutcome {
        let identity = ReportIdentity.of(Self.fileName(path), kind: kind)
        return try stage(identity, path: path, unchanged: { db in try knownSHA256.map { try held(identity, sha: $0, db) } ?? false }) { db, id in
            let tally = kind == .googleEstimatedSales
                ? try GoogleEstimatedSalesStaging.stage(path, fileID: id, into: db)
                : try AppleReportStaging.stage(path, kind: kind, fileID: id, into: db)
            return (tally.sha256, tally.rows, nil)
        }
    }

    /// The content staged: its hash (known only once it is read, for a file staged as it is read), row count and the
    /// file's bytes kept (Google earnings).
    private typealias Staged = (sha: String, rows: Int, kept: KeptReportFile?)

    /// Signals, inside the transaction, that the content just read was held before: the staging is rolled back.
    private struct HeldBefore: Error {}

    /// Stages one file of the report `identity` in one transaction: unless `unchanged` (a first look, under the
    /// report's lock) finds the file held before, `copy` writes its rows (and rates) under the new file's id. Then,
    /// in this order: content the report held before is a no-op (rolled back); a correction of
    /// a file a close compared or with fewer rows is refused (rolled back); else the file it replaces loses its rows
    /// and is marked, and the replacement is audited with both row counts.
    private func stage(_ identity: ReportIdentity, path: String, unchanged: (PostgresConnection) throws -> Bool,
                       copy: (PostgresConnection, Int64) throws -> Staged) throws -> ReportLoadOutcome {
        do {
            // READ COMMITTED, whatever the session's default: each statement sees what other imports committed
            // before it, which keeping a file's bytes relies on (`KeptReportFile.keep`).
            return try database.transaction(isolation: "READ COMMITTED") { db in
                // One importer at a time per report, so two runs cannot both add a current file.
                _ = try db.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["report_file:" + identity.key])
                if try unchanged(db) { return .unchanged }
                let previous = try current(identity, lock: true)
                let id = try db.query("SELECT nextval(pg_get_serial_sequence('report_file', 'id')) AS id").first?.decode(Int64.self, "id") ?? 0
                let name = Self.fileName(path)
                // The rows first (their reference to the file is checked at commit, migration 0024): the file's row
                // records the content hash and row count, known once the content has been read.
                let staged = try copy(db, id)
                if try held(identity, sha: staged.sha, db) { throw HeldBefore() }
                if let previous {
                    try refuseClosed(name, identity, previousID: previous.id, db)
                    try refuseShrinking(name, identity, rows: staged.rows, previous: previous)
                    _ = try db.execute("DELETE FROM \(StagingCopy.table(identity.kind)) WHERE report_file_id = $1", [previous.id])
                    _ = try db.execute("UPDATE report_file SET replaced_by = $1 WHERE id = $2", [id, previous.id])
                }
                _ = try db.execute("""
                    INSERT INTO report_file (id, kind, provider, file_name, report_key, content_sha256, period, region, vendor, row_count,
                                             kept_sha256, kept_size)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::bytea, $12::int8)
                    """, [id, identity.kind.rawValue, identity.provider, name, identity.key, staged.sha, identity.period,
                          identity.region, identity.vendor, staged.rows, staged.kept.map { KeptReportFile.hexLiteral($0.sha256) },
                          staged.kept.map { $0.size }])
                guard let previous else { return .imported(rows: staged.rows) }
                _ = try db.execute("""
                    INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                    VALUES ($1, 'replace_report_file', 'report_file', $2,
                            jsonb_build_object('report_key', $3::text, 'previous_sha256', $4::text, 'new_sha256', $5::text,
                                               'previous_id', $6::bigint, 'rows', $7::int, 'previous_rows', $8::int,
                                               'allowed_shrink', $9::bool))
                    """, [actor, String(id), identity.key, previous.sha, staged.sha, previous.id, staged.rows, Int64(previous.rows),
                          staged.rows < previous.rows])
                return .replaced(rows: staged.rows, previousSHA256: previous.sha)
            }
        } catch is HeldBefore {
            return .unchanged
        }
    }

    /// The last component of `path`.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Throws `ClosedPeriodCorrection` when the file `previousID` is one a close in force compared.
    private func refuseClosed(_ name: String, _ identity: ReportIdentity, previousID: Int64, _ db: PostgresConnection) throws {
        if let refusal = try ClosedPeriodCorrection.check(file: name, previousID: previousID, reportKey: identity.key, in: db) {
            throw refusal
        }
    }

    /// Throws `ShrinkingReplacement` when a file of `rows` rows has fewer rows than the file it would replace (and
    /// shrinking is not allowed).
    private func refuseShrinking(_ name: String, _ identity: ReportIdentity, rows: Int,
                                 previous: (id: Int64, sha: String, rows: Int, name: String)) throws {
        guard !allowShrink, rows < previous.rows else { return }
        throw ShrinkingReplacement(file: name, replaces: previous.name, reportKey: identity.key, rows: rows, previousRows: previous.rows)
    }

    /// Whether the report held this content before (its current file or one it replaced).
    private func held(_ identity: ReportIdentity, sha: String, _ db: PostgresConnection) throws -> Bool {
        try db.query("SELECT 1 FROM report_file WHERE kind = $1 AND report_key = $2 AND content_sha256 = $3",
                     [identity.kind.rawValue, identity.key, sha]).first != nil
    }

    /// Whether the report held the content `sha` before (a rerun's first look, outside any transaction).
    public func holds(_ identity: ReportIdentity, sha: String) throws -> Bool {
        try held(identity, sha: sha, database)
    }

    /// The current (not replaced) file of the report, locked for the transaction when `lock`.
    private func current(_ identity: ReportIdentity, lock: Bool) throws -> (id: Int64, sha: String, rows: Int, name: String)? {
        guard let row = try database.query("""
            SELECT id, content_sha256, row_count::int8 AS row_count, file_name FROM report_file WHERE kind = $1 AND report_key = $2 AND replaced_by IS NULL
            """ + (lock ? " FOR UPDATE" : ""), [identity.kind.rawValue, identity.key]).first else { return nil }
        return (try row.decode(Int64.self, "id"), try row.decode(String.self, "content_sha256"),
                Int(try row.decode(Int64.self, "row_count")), try row.decode(String.self, "file_name"))
    }
}

import Crypto
import Foundation
import JobKit
import Postgres

/// build-reports' stored months (migration 0027; Reports/README.md, "Incremental runs"). For every report whose
/// catalogue entry declares `reuse`, the rows of each complete month are stored with the digest of what they read
/// (`report_month_inputs`) and the SHA-256 of the SQL; a later run with the same basis and reporting currency reads
/// the stored rows of the reported months from the first one on while digest and SQL are unchanged, and computes only
/// the months after them (its SQL run with the first month moved there). `--full` reuses nothing; it stores the months
/// whose rows differ from the stored entry's (migration 0047), leaving equal ones as they are.
final class StoredMonths {
    /// One report's plan: its SQL's hash and the first month it computes (the months before it, from the first reported
    /// month, are read from the store).
    struct Plan {
        let sqlSHA256: String
        let firstComputed: ReportMonth
        /// The stored entries this SQL computed from the run's inputs, by month: their rows' digest (`rows_sha256`).
        /// A month the run computes again with the same digest is left as it is (`MonthRecorder`).
        var storedRows: [String: String] = [:]
    }

    private let settings: ReportSettings
    private let database: PostgresConnection
    /// `report_month_inputs` of every snapshot month of the run.
    private let inputs: [String: String]
    private var plans: [String: Plan] = [:]
    /// The connection that records and stores the computed months (`MonthWriter`); nil: the job's session does.
    let writer: MonthWriter?

    private init(settings: ReportSettings, database: PostgresConnection, inputs: [String: String], writer: MonthWriter?) {
        self.settings = settings
        self.database = database
        self.inputs = inputs
        self.writer = writer
    }

    /// The same plans, digests and month writer, reading the store and moving the first month on `database` instead: a
    /// session that imported the run's snapshot and holds copies of the filled tables its reports read (`LateReports`).
    /// Its recorders send to the same `MonthWriter` (which takes statements from any thread), so the run stores its
    /// months as one.
    func on(_ database: PostgresConnection) -> StoredMonths {
        let copy = StoredMonths(settings: settings, database: database, inputs: inputs, writer: writer)
        copy.plans = plans
        return copy
    }

    /// Reads the run's input digests and the store, decides each declaring report's first computed month and creates the
    /// temporary tables of the months to store. Runs in the run's transaction after the shared tables are filled and
    /// before it turns read-only; nil when no present report declares `reuse`. `history`, when given, is the history
    /// part of the digest computed on the same snapshot (`report_month_history`'s rows as a jsonb array, from the second
    /// session: `HistoryReports`); otherwise this session computes it. With `connect`, the computed months are recorded
    /// and stored on a connection of their own (`MonthWriter`), else in `database`'s session. `parts` is the digest's
    /// contribution and state parts (`SnapshotParts.json`: the stored parts of a night, corrected, and the placed
    /// snapshots'). `fxSQL`, the text of `fx_missing.sql`, is hashed with each report's SQL: a reused month is not
    /// checked for missing rates again (`checkedFrom`), so a changed check must not reuse what the old one passed.
    static func prepare(_ present: [(ReportDefinition, String)], settings: ReportSettings, fxSQL: String = "",
                        database: PostgresConnection, connect: (() throws -> PostgresConnection)? = nil,
                        parts: String, history: () throws -> String? = { nil }) throws -> StoredMonths? {
        let declaring = present.filter { $0.0.reuse != nil }
        guard !declaring.isEmpty else { return nil }
        let given = try history()
        return try failing("stored months") {
            let all = ReportQuery.parameters(settings)
            let shared: [any PostgresEncodable] = [all[0], all[1], all[2], all[4]]
            var inputs: [String: String] = [:]
            // The history part given (its rows as a jsonb array) or computed here; the contribution and state parts given.
            let historyPart = given == nil ? "(SELECT jsonb_agg(h) FROM report_month_history($1, $4) h)" : "$6::jsonb"
            let digests = try database.query("""
                SELECT month, inputs FROM report_month_inputs($1, $2, $3, $4, \(historyPart), $5::jsonb)
                """, shared + [parts] + (given.map { [$0] } ?? []))
            for row in digests.textRows() {
                if let month = row[0], let digest = row[1] { inputs[month] = digest }
            }
            let writer = try connect.map { try MonthWriter.start(connect: $0) }
            let stored = StoredMonths(settings: settings, database: database, inputs: inputs, writer: writer)
            for (definition, sql) in declaring {
                var keyed = sql + "\n-- fx_missing.sql " + SHA256Digest.hex(Array(fxSQL.utf8))
                // Which groups a cell report holds depends on the first reported month (Reports/README.md, "Incremental runs").
                if definition.reuse?.groups != nil { keyed += "\n-- first month " + settings.firstMonth.description }
                let sha = SHA256Digest.hex(Array(keyed.utf8))
                stored.plans[definition.name] = try stored.plan(definition.name, sha: sha)
            }
            if writer == nil { try createNewTables(database) }
            return stored
        }
    }

    /// Creates the temporary tables of the months a run records, in `database`'s session (`save` moves them to the store).
    static func createNewTables(_ database: PostgresConnection) throws {
        try database.execute("CREATE TEMP TABLE report_stored_new_month (LIKE public.report_stored_month)")
        try database.execute("CREATE TEMP TABLE report_stored_new_row (LIKE public.report_stored_row)")
        try database.execute("CREATE TEMP TABLE report_stored_new_csv (LIKE public.report_stored_csv)")
    }

    /// `report`'s plan: the first month it computes, the first reported month not stored complete with this SQL hash
    /// (`sha`) and these inputs (the first reported month under `--full`), and the digests of the stored entries of
    /// this SQL and these inputs.
    private func plan(_ report: String, sha: String) throws -> Plan {
        var rows: [String: String] = [:]
        var current: Set<String> = []
        for row in try database.query("""
            SELECT month, sql_sha256, inputs, rows_sha256 FROM report_stored_month WHERE report = $1 AND basis = $2 AND currency = $3
            """, [report, settings.basis.rawValue, settings.currency]).textRows() {
            guard let month = row[0], row[1] == sha, let digest = row[2], digest == inputs[month] else { continue }
            current.insert(month)
            if let stored = row[3] { rows[month] = stored }
        }
        var month = settings.firstMonth
        while !settings.recomputeAll, isComplete(month), month <= settings.lastMonth, current.contains(month.description) {
            month = month.advanced(by: 1)
        }
        return Plan(sqlSHA256: sha, firstComputed: month, storedRows: rows)
    }

    /// Makes the run's filled tables those of a run whose first reported month is `month` (the snapshots' `reported`
    /// flag, and the first month they are recorded for), so a report run with that first month reads them; the
    /// contributions and movements do not depend on the first month, the snapshots being the same. Temporary tables,
    /// so allowed in the read-only snapshot; `month` = the run's first month restores them.
    func moveFirstMonth(to month: ReportMonth) throws {
        var moved = settings
        moved.firstMonth = month
        try Self.failing("stored months") {
            _ = try database.execute("UPDATE pg_temp.report_snapshot_run SET reported = month_start >= $1::date", [month.firstDayText])
            _ = try database.execute("UPDATE pg_temp.report_run_filled SET first_month = $1", [ReportQuery.parameters(moved)[1]])
        }
    }

    /// Marks the snapshots of the months from `month` on as `reported` (the months a cell report, or the FX check,
    /// computes), leaving the run's first month as it is; `month` = the run's first month restores them.
    func markReported(from month: ReportMonth) throws {
        try Self.failing("stored months") {
            _ = try database.execute("UPDATE pg_temp.report_snapshot_run SET reported = month_start >= $1::date", [month.firstDayText])
        }
    }

    /// The first month the run must check for missing FX rates: the first month any storing report computes. Every
    /// earlier reported month is reused by all of them, so a run with the same inputs digest for it (which covers
    /// the contributions at its snapshot and the one before and every `fx_rate` row up to it), the same reporting
    /// currency and the same `fx_missing.sql` (hashed with each report's SQL) checked it and passed before storing it
    /// (Reports/README.md, "FX").
    var checkedFrom: ReportMonth {
        plans.values.map(\.firstComputed).min() ?? settings.firstMonth
    }

    /// A month whose snapshot is its end: the as-of instant is in a later month.
    private func isComplete(_ month: ReportMonth) -> Bool { month < settings.asOfMonth }

    /// The plan of `definition`, nil when it does not declare `reuse`.
    func plan(for definition: ReportDefinition) -> Plan? { plans[definition.name] }

    /// Hands the stored rows of `definition`'s reused months (in month order, each month's in the report's order) to
    /// `body`, with the stored columns, at least once when any month is reused; the number of rows.
    @discardableResult
    func replay(_ definition: ReportDefinition, _ body: (_ columns: [String], _ rows: [[String?]]) throws -> Void) throws -> Int {
        guard let plan = plans[definition.name], plan.firstComputed > settings.firstMonth else { return 0 }
        return try Self.failing("stored months of \(definition.name)") {
            let key: [any PostgresEncodable] = [definition.name, settings.basis.rawValue, settings.currency]
            let columns = try storedColumns(definition)
            let cells = columns.indices.map { "cells->>\($0) AS c\($0)" }.joined(separator: ", ")
            var count = 0, called = false
            try ReportQuery.stream(definition.name, sql: """
                SELECT \(cells) FROM report_stored_row
                WHERE report = $1 AND basis = $2 AND currency = $3 AND month >= $4 AND month < $5 ORDER BY month, ordinal
                """, parameters: key + [settings.firstMonth.description, plan.firstComputed.description], database: database) { _, rows in
                count += rows.count
                called = true
                try body(columns, rows)
            }
            if !called { try body(columns, []) }
            return count
        }
    }

    /// The columns of `definition`'s stored first reported month (the run's first month), in order.
    private func storedColumns(_ definition: ReportDefinition) throws -> [String] {
        try database.query("""
            SELECT c FROM report_stored_month m, unnest(m.columns) WITH ORDINALITY AS u(c, i)
            WHERE m.report = $1 AND m.basis = $2 AND m.currency = $3 AND m.month = $4 ORDER BY u.i
            """, [definition.name, settings.basis.rawValue, settings.currency, settings.firstMonth.description]).textRows().map { $0[0] ?? "" }
    }

    /// The key of the stored CSV lines this run writes and replays (`ReportFormatter.csvFormat`).
    private var csvFormat: String { ReportFormatter.csvFormat(rawIdentifiers: settings.rawIdentifiers) }

    /// Writes the stored CSV lines of `definition`'s reused months (in month order) when every one of them has lines
    /// under the run's format formatted from the rows its entry holds (migration 0062): `header` gets the stored
    /// columns first, then `lines` each month's lines as they are. Returns the number of rows, or nil, having handed
    /// nothing, when some reused month lacks such lines (`replay` formats its stored rows instead) or none is reused.
    func replayCSV(_ definition: ReportDefinition, header: (_ columns: [String]) throws -> Void,
                   lines: (_ bytes: UnsafeRawBufferPointer, _ rows: Int) throws -> Void) throws -> Int? {
        guard let plan = plans[definition.name], plan.firstComputed > settings.firstMonth else { return nil }
        return try Self.failing("stored CSV lines of \(definition.name)") {
            let months = plan.firstComputed.index - settings.firstMonth.index
            let key: [any PostgresEncodable] = [definition.name, settings.basis.rawValue, settings.currency,
                                                settings.firstMonth.description, plan.firstComputed.description, csvFormat]
            let found = try database.query("""
                SELECT count(*), count(c.month), COALESCE(sum(m.row_count), 0)
                FROM report_stored_month m
                LEFT JOIN report_stored_csv c ON c.report = m.report AND c.basis = m.basis AND c.currency = m.currency
                     AND c.month = m.month AND c.format = $6 AND c.rows_sha256 = m.rows_sha256 AND c.row_count = m.row_count
                WHERE m.report = $1 AND m.basis = $2 AND m.currency = $3 AND m.month >= $4 AND m.month < $5
                """, key).textRows().first
            guard let found, found[0] == String(months), found[1] == String(months), let rows = found[2].flatMap({ Int($0) }) else {
                return nil
            }
            try header(try storedColumns(definition))
            let literal = { (value: String) in SQLLiteral.quoted(value) }
            var reader = BinaryCopyReader()
            _ = try database.copyOutMessages("""
                COPY (SELECT c.row_count, c.body FROM report_stored_csv c
                      WHERE c.report = \(literal(definition.name)) AND c.basis = \(literal(settings.basis.rawValue))
                        AND c.currency = \(literal(settings.currency)) AND c.format = \(literal(csvFormat))
                        AND c.month >= \(literal(settings.firstMonth.description)) AND c.month < \(literal(plan.firstComputed.description))
                      ORDER BY c.month) TO STDOUT (FORMAT binary)
                """) { message in
                guard try reader.read(message), reader.fields.count == 2, let count = reader.fields[0], count.count == 4,
                      let body = reader.fields[1] else { return }
                try lines(UnsafeRawBufferPointer(rebasing: message[body]),
                          Int(Int32(bigEndian: message.loadUnaligned(fromByteOffset: count.lowerBound, as: Int32.self))))
            }
            return rows
        }
    }

    /// What records the rows `definition` computes, month by month, for the store; nil when it does not declare `reuse`.
    /// With `csvLines` (a report whose file is its CSV alone, streamed), each recorded month's CSV lines are stored too,
    /// unless the store holds lines of the same rows under the run's format.
    func recorder(for definition: ReportDefinition, csvLines: Bool = false) throws -> MonthRecorder? {
        guard let reuse = definition.reuse, let plan = plans[definition.name] else { return nil }
        let writer = self.writer, database = self.database
        var csv: MonthRecorder.CSVLines?
        if csvLines {
            var stored: [String: String] = [:]
            try Self.failing("stored CSV lines of \(definition.name)") {
                for row in try database.query("""
                    SELECT month, rows_sha256 FROM report_stored_csv WHERE report = $1 AND basis = $2 AND currency = $3 AND format = $4
                    """, [definition.name, settings.basis.rawValue, settings.currency, csvFormat]).textRows() {
                    if let month = row[0], let digest = row[1] { stored[month] = digest }
                }
            }
            csv = MonthRecorder.CSVLines(format: csvFormat, rawIdentifiers: settings.rawIdentifiers, stored: stored)
        }
        return MonthRecorder(report: definition.name, column: reuse.column, plan: plan, settings: settings, inputs: inputs,
                             csv: csv) { sql, parameters in
            if let writer { try writer.send(sql, parameters) } else { _ = try database.execute(sql, parameters()) }
        }
    }

    /// Replaces the stored entries of the months this run recorded, in a transaction of its own after the run's
    /// (whose snapshot computed them), and drops the run's temporary tables; with `keep` false only drops them.
    static func save(_ database: PostgresConnection, keep: Bool) throws {
        try failing("storing months") {
            if keep {
                try database.transaction { db in
                    // Two runs storing at once: the second waits, then replaces what the first stored.
                    _ = try db.execute("LOCK TABLE report_stored_month IN SHARE ROW EXCLUSIVE MODE")
                    // The rows first: they have no foreign key to their entry (migration 0038).
                    _ = try db.execute("""
                        DELETE FROM report_stored_row m USING pg_temp.report_stored_new_month n
                        WHERE m.report = n.report AND m.basis = n.basis AND m.currency = n.currency AND m.month = n.month
                        """)
                    _ = try db.execute("""
                        DELETE FROM report_stored_month m USING pg_temp.report_stored_new_month n
                        WHERE m.report = n.report AND m.basis = n.basis AND m.currency = n.currency AND m.month = n.month
                        """)
                    _ = try db.execute("INSERT INTO report_stored_month SELECT * FROM pg_temp.report_stored_new_month")
                    _ = try db.execute("INSERT INTO report_stored_row SELECT * FROM pg_temp.report_stored_new_row")
                    // A month's CSV lines go with its rows: every format's formatted from other rows than the month's
                    // new entry holds (an entry stored again with the same rows, under new inputs, keeps them), and
                    // those written anew.
                    _ = try db.execute("""
                        DELETE FROM report_stored_csv c
                        USING (SELECT report, basis, currency, month, NULL::text AS format, rows_sha256 FROM pg_temp.report_stored_new_month
                               UNION ALL
                               SELECT report, basis, currency, month, format, NULL FROM pg_temp.report_stored_new_csv) n
                        WHERE c.report = n.report AND c.basis = n.basis AND c.currency = n.currency AND c.month = n.month
                          AND (c.format = n.format OR (n.format IS NULL AND c.rows_sha256 IS DISTINCT FROM n.rows_sha256))
                        """)
                    _ = try db.execute("INSERT INTO report_stored_csv SELECT * FROM pg_temp.report_stored_new_csv")
                }
            }
            try database.execute("DROP TABLE IF EXISTS pg_temp.report_stored_new_month, pg_temp.report_stored_new_row, pg_temp.report_stored_new_csv")
        }
    }

    /// Runs `body`, naming `what` in a database error.
    static func failing<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw JobError.failed("report \(what): \(error.message)" + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
        }
    }
}

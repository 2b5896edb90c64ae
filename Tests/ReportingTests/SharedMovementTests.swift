import Foundation
import Postgres
import Reporting
import Testing

/// build-reports fills the shared relations (snapshots, contributions, movements) once per run, and the report files
/// read them through the schema's `report_run_*` functions (migration 0021), which compute the rows themselves when a
/// file is run by hand. The two ways must give the same rows, and a filled table must really be what is read.
@Suite(.serialized) struct SharedMovementTests {
    @Test func theOnceFilledTablesAreReadAndHoldWhatTheFunctionsCompute() throws {
        let harness = try ReportingHarness("shared_movement", subscriptions: 400, months: 8)
        let db = harness.database
        let parameters: [any PostgresEncodable] = [harness.asOf, "2000-01-01", harness.asOf, "corrected"]
        // By hand (nothing filled) the run functions compute what the defining functions return.
        for relation in ["snapshot", "contribution", "movement", "subscriber_state"] {
            #expect(try Self.difference(db, "report_run_\(relation)", "report_\(relation)", parameters) == 0, "\(relation) by hand")
        }
        try db.execute("BEGIN")
        defer { _ = try? db.execute("ROLLBACK") }
        try SharedReportTables.fill(parameters: parameters, database: db)
        for relation in ["snapshot", "contribution", "movement", "subscriber_state"] {
            let filled = try db.query("SELECT count(*)::int AS n FROM pg_temp.report_\(relation)_run").first?.decode(Int.self, "n") ?? 0
            #expect(filled > (relation == "snapshot" ? 5 : 100), "\(relation): \(filled) rows filled")
            #expect(try Self.difference(db, "report_run_\(relation)", "report_\(relation)", parameters) == 0, "\(relation) filled")
        }
        // The run functions read the filled tables: emptied, they return nothing for the run's parameters ...
        try db.execute("DELETE FROM pg_temp.report_movement_run")
        #expect(try Self.count(db, "report_run_movement", parameters) == 0)
        // ... and compute for any other parameters.
        let other: [any PostgresEncodable] = [harness.asOf, "2000-01-01", harness.asOf, "known"]
        #expect(try Self.count(db, "report_run_movement", other) > 100)
    }

    /// A night fills the movements from one snapshot on (migration 0049): at every snapshot from there they are the
    /// rows of the whole window, and none before; `new` and `reactivation` need the accounts that paid before the
    /// window, which their spans show (0052; the earlier contributions, 0049). Checked from every snapshot of a world with
    /// reactivations, and so is one snapshot's movements computed alone (0078).
    @Test func theMovementsFromASnapshotAreTheWholeWindowsRowsFromThere() throws {
        let harness = try ReportingHarness("movement_from", subscriptions: 400, months: 8)
        let db = harness.database
        let parameters: [any PostgresEncodable] = [harness.asOf, "2000-01-01", harness.asOf, "corrected"]
        try db.execute("BEGIN")
        defer { _ = try? db.execute("ROLLBACK") }
        try SharedReportTables.fill(parameters: parameters, database: db)
        // As build-reports does before a night's movements: their accounts' spans are looked up by subscription.
        try SharedReportTables.indexSpans(db)
        let last = try db.query("SELECT max(n)::int AS n FROM pg_temp.report_snapshot_run").first?.decode(Int.self, "n") ?? 0
        #expect(last >= 8)
        let reactivations = try db.query("""
            SELECT count(*)::int AS n FROM pg_temp.report_movement_run WHERE movement = 'reactivation'
            """).first?.decode(Int.self, "n") ?? 0
        #expect(reactivations > 0, "the world has reactivations for the earlier accounts to decide")
        var computedAlone = 0
        for from in 1...(last + 1) {
            let sql = """
                SELECT count(*)::int AS n, (SELECT count(*)::int FROM report_movement($1, $2, $3, $4, $5::bigint) WHERE n < $5::bigint) AS early
                FROM (
                  (SELECT * FROM report_movement($1, $2, $3, $4, $5::bigint)
                   EXCEPT ALL SELECT * FROM pg_temp.report_movement_run WHERE n >= $5::bigint)
                  UNION ALL
                  (SELECT * FROM pg_temp.report_movement_run WHERE n >= $5::bigint
                   EXCEPT ALL SELECT * FROM report_movement($1, $2, $3, $4, $5::bigint))) d
                """
            let row = try db.query(sql, parameters + [String(from)]).first
            #expect(try row?.decode(Int.self, "n") == 0, "from snapshot \(from): rows differ from the whole window's")
            #expect(try row?.decode(Int.self, "early") == 0, "from snapshot \(from): rows before it")
            // One snapshot's movements alone (0078, a night's): the whole window's rows there, none past the last.
            let at = try db.query("""
                SELECT count(*)::int AS n, (SELECT count(*)::int FROM report_movement_at($1, $2, $3, $4, $5::bigint, NULL)) AS rows
                FROM (
                  (SELECT * FROM report_movement_at($1, $2, $3, $4, $5::bigint, NULL)
                   EXCEPT ALL SELECT * FROM pg_temp.report_movement_run WHERE n = $5::bigint)
                  UNION ALL
                  (SELECT * FROM pg_temp.report_movement_run WHERE n = $5::bigint
                   EXCEPT ALL SELECT * FROM report_movement_at($1, $2, $3, $4, $5::bigint, NULL))) d
                """, parameters + [String(from)]).first
            #expect(try at?.decode(Int.self, "n") == 0, "at snapshot \(from): rows differ from the whole window's there")
            // Of some accounts only (0079, a night's recomputed accounts): exactly those accounts' rows.
            let some = try db.query("""
                WITH wanted AS (SELECT array_agg(DISTINCT billing_account_id) AS ids FROM pg_temp.report_movement_run
                                WHERE n = $5::bigint AND get_byte(uuid_send(billing_account_id), 15) % 3 = 0)
                SELECT count(*)::int AS n, (SELECT count(*)::int FROM wanted, report_movement_at($1, $2, $3, $4, $5::bigint, wanted.ids)) AS rows
                FROM (
                  (SELECT r.* FROM wanted, report_movement_at($1, $2, $3, $4, $5::bigint, wanted.ids) r
                   EXCEPT ALL SELECT m.* FROM wanted, pg_temp.report_movement_run m WHERE m.n = $5::bigint AND m.billing_account_id = ANY (wanted.ids))
                  UNION ALL
                  (SELECT m.* FROM wanted, pg_temp.report_movement_run m WHERE m.n = $5::bigint AND m.billing_account_id = ANY (wanted.ids)
                   EXCEPT ALL SELECT r.* FROM wanted, report_movement_at($1, $2, $3, $4, $5::bigint, wanted.ids) r)) d
                """, parameters + [String(from)]).first
            #expect(try some?.decode(Int.self, "n") == 0, "at snapshot \(from): some accounts' rows differ from theirs in the whole window")
            if from <= last, try at?.decode(Int.self, "rows") ?? 0 > 30 {
                #expect(try some?.decode(Int.self, "rows") ?? 0 > 0, "at snapshot \(from): some accounts' rows computed")
            }
            let rows = try at?.decode(Int.self, "rows") ?? -1
            if from > last { #expect(rows == 0, "past the last snapshot: \(rows) rows") } else { computedAlone += rows }
        }
        #expect(computedAlone > 100, "\(computedAlone) rows computed one snapshot at a time")
    }

    /// A placement over a range of snapshot instants (migration 0052: a night places only the snapshots its computed
    /// months read) returns the whole placement's rows at the snapshots in the range and none other, for every range of
    /// a world's snapshots from its first month with history (the range's end past the last one: unbounded),
    /// contributions and subscriber states alike.
    @Test func thePlacementsOfARangeAreTheWholePlacementsRowsThere() throws {
        let (harness, parameters, last) = try Self.filledFromTheFirstMonth("placement_range", subscriptions: 200)
        let db = harness.database
        defer { _ = try? db.execute("ROLLBACK") }
        #expect((6...12).contains(last), "\(last) snapshots")
        for relation in ["contribution", "subscriber_state"] {
            for from in 1...last {
                for until in from...(last + 1) {
                    let sql = """
                        WITH bound AS (SELECT (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int) AS a,
                                              (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $6::int) AS b)
                        SELECT count(*)::int AS n FROM (
                          (SELECT r.* FROM bound, report_\(relation)($1, $2, $3, $4, bound.a, bound.b) r
                           EXCEPT ALL SELECT * FROM pg_temp.report_\(relation)_run WHERE n >= $5::int AND n < $6::int)
                          UNION ALL
                          (SELECT * FROM pg_temp.report_\(relation)_run WHERE n >= $5::int AND n < $6::int
                           EXCEPT ALL SELECT r.* FROM bound, report_\(relation)($1, $2, $3, $4, bound.a, bound.b) r)) d
                        """
                    let differ = try db.query(sql, parameters + [String(from), String(until)]).first?.decode(Int.self, "n")
                    #expect(differ == 0, "\(relation) from snapshot \(from) until \(until)")
                }
            }
        }
    }

    /// A span covers a snapshot at or after its start and before its end (0052): one starting exactly at a snapshot's
    /// instant is placed there and one ending there is not, over a range of two snapshots (a night's) and of four
    /// alike. A generated world hardly has such spans (its snapshots are a month's last millisecond), so they are added
    /// to the run's: a paying one and a non-paying one starting there, and one of each ending there.
    @Test func aSpanStartingOrEndingAtASnapshotIsPlacedAlikeOverANarrowAndAWideRange() throws {
        let (harness, parameters, last) = try Self.filledFromTheFirstMonth("placement_edges", subscriptions: 120)
        let db = harness.database
        defer { _ = try? db.execute("ROLLBACK") }
        #expect(last >= 5, "\(last) snapshots")
        let n = last - 2
        try db.execute("""
            INSERT INTO pg_temp.report_span_run
            SELECT gen_random_uuid(), sp.provider, gen_random_uuid(), sp.state, e.from_at, e.to_at, sp.currency, sp.country,
                   sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
            FROM (SELECT DISTINCT ON (r.state IS NULL) r.* FROM pg_temp.report_span_run r ORDER BY r.state IS NULL, r.from_at) sp
            CROSS JOIN (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $1::int) s
            CROSS JOIN LATERAL (VALUES (s.at, NULL::timestamptz), (s.at - interval '10 days', s.at)) AS e(from_at, to_at)
            """, [String(n)])
        for relation in ["contribution", "subscriber_state"] {
            // Rows at snapshot n placed over [n - 1, n + 1) and over [n - 2, n + 2).
            let sql = """
                WITH at AS (SELECT (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int - 1) AS a2,
                                   (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int + 1) AS b2,
                                   (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int - 2) AS a4,
                                   (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int + 2) AS b4),
                narrow AS (SELECT r.* FROM at, report_\(relation)($1, $2, $3, $4, at.a2, at.b2) r WHERE r.n = $5::int),
                wide AS (SELECT r.* FROM at, report_\(relation)($1, $2, $3, $4, at.a4, at.b4) r WHERE r.n = $5::int)
                SELECT (SELECT count(*)::int FROM ((SELECT * FROM narrow EXCEPT ALL SELECT * FROM wide)
                                                   UNION ALL (SELECT * FROM wide EXCEPT ALL SELECT * FROM narrow)) d) AS differ,
                       (SELECT count(*)::int FROM narrow c JOIN pg_temp.report_span_run sp USING (subscription_id)
                        WHERE sp.from_at = (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int)) AS starting,
                       (SELECT count(*)::int FROM narrow c JOIN pg_temp.report_span_run sp USING (subscription_id)
                        WHERE sp.to_at = (SELECT at FROM pg_temp.report_snapshot_run WHERE n = $5::int)) AS ending
                """
            let row = try db.query(sql, parameters + [String(n)]).first
            #expect(try row?.decode(Int.self, "differ") == 0, "\(relation): the narrow and the wide range's rows differ at snapshot \(n)")
            #expect(try row?.decode(Int.self, "starting") == 1, "\(relation): the span starting at the snapshot is placed there")
            #expect(try row?.decode(Int.self, "ending") == 0, "\(relation): the span ending at the snapshot is not")
        }
    }

    /// A world of `subscriptions` over six months with the run's tables filled from its first month with history, in a
    /// transaction left open for the caller to roll back: the harness, the run's parameters and its last snapshot.
    static func filledFromTheFirstMonth(_ name: String, subscriptions: Int)
        throws -> (harness: ReportingHarness, parameters: [any PostgresEncodable], last: Int) {
        let harness = try ReportingHarness(name, subscriptions: subscriptions, months: 6)
        let db = harness.database
        let first = try #require(db.query("""
            SELECT to_char(date_trunc('month', min(effective_at) AT TIME ZONE 'UTC'), 'YYYY-MM-DD') FROM billing_transaction
            """).textRows().first?.first ?? nil)
        let parameters: [any PostgresEncodable] = [harness.asOf, first, harness.asOf, "corrected"]
        try db.execute("BEGIN")
        try SharedReportTables.fill(parameters: parameters, database: db)
        let last = try db.query("SELECT max(n)::int AS n FROM pg_temp.report_snapshot_run").first?.decode(Int.self, "n") ?? 0
        return (harness, parameters, last)
    }

    /// Rows in one function's result and not the other's, both ways, counted with their multiplicity.
    static func difference(_ db: PostgresConnection, _ a: String, _ b: String, _ parameters: [any PostgresEncodable]) throws -> Int {
        let sql = """
            SELECT count(*)::int AS n FROM (
              (SELECT * FROM \(a)($1, $2, $3, $4) EXCEPT ALL SELECT * FROM \(b)($1, $2, $3, $4))
              UNION ALL
              (SELECT * FROM \(b)($1, $2, $3, $4) EXCEPT ALL SELECT * FROM \(a)($1, $2, $3, $4))) d
            """
        return try db.query(sql, parameters).first?.decode(Int.self, "n") ?? -1
    }

    static func count(_ db: PostgresConnection, _ function: String, _ parameters: [any PostgresEncodable]) throws -> Int {
        try db.query("SELECT count(*)::int AS n FROM \(function)($1, $2, $3, $4)", parameters).first?.decode(Int.self, "n") ?? -1
    }

    /// A misspelt basis is an error that names it, in every report file (each reads the shared report_params).
    @Test func aMisspeltBasisFailsEveryReportNamingIt() throws {
        let harness = try ReportingHarness("misspelt_basis", subscriptions: 40, months: 3)
        for report in ReportingHarness.shippedReports + ["reconciliation"] {
            let url = ReportingHarness.reportsFolder.appendingPathComponent(report + ".sql")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let sql = try String(contentsOf: url, encoding: .utf8)
            let parameters: [any PostgresEncodable] = [harness.asOf, "2025-01-01", harness.asOf, "USD", "korrected"]
            #expect(throws: PostgresError.self, "\(report)") { _ = try harness.database.query(sql, parameters) }
            do { _ = try harness.database.query(sql, parameters) } catch let error as PostgresError {
                #expect(error.message.contains("not korrected"), "\(report): \(error.message)")
            }
        }
    }
}

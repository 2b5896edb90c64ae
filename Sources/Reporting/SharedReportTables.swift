import Foundation
import JobKit
import Postgres

/// The shared part of the MRR reports (and the subscriber states of `subscribers` and `kpis`), computed once per run
/// from the per-subscription spans (`StoredSpans`). The report files read the schema's functions
/// `report_run_snapshot`, `report_run_contribution` and `report_run_movement` (SQL/migrations/0021_report_shared_definitions.sql),
/// which return the rows of a temporary table of the run when it was filled for the same parameters, and compute them
/// otherwise (a file run by hand). The files are run as they are: no text of theirs is replaced.
public enum SharedReportTables {
    /// What is filled, in this order (each from the ones before it). For each relation `r`, `report_r` computes it,
    /// `report_r_run` is the temporary table (named like the schema's always-empty placeholder it shadows) and
    /// `report_run_filled` records it under `r`.
    /// `span`, the per-subscription spans (migration 0031), comes first after the snapshots: the contributions and
    /// the subscriber states place them on the snapshots. `trial`, each subscription's free trial and its outcome
    /// (migration 0051), is stored and reused with the spans; `trial_conversion` reads it. The movements come last
    /// (`fillMovements`).
    static let relations = ["snapshot", "span", "trial", "contribution", "subscriber_state"]

    /// The relations a `StoredSpans` fills from its store and the recomputed subscriptions (`fill(_:table:)`).
    static let storedRelations: Set<String> = ["span", "trial"]

    /// Creates and fills the tables but the movements in the open transaction, before it turns read-only; they are
    /// dropped at its end, but for the spans and the trials, which `spans` fills (from the store and the recomputed
    /// subscriptions) and drops after storing. The contributions and the subscriber states are placed on the snapshots
    /// from the first one without a usable stored part of the month digest (`SnapshotParts`: every snapshot when every
    /// span was recomputed) and the one before it — what a night that computes only that month reads (its movements
    /// window from the previous snapshot, `subscribers` its states there) — and the parts of every snapshot are ready in
    /// `report_snapshot_part_run`; the first snapshot placed is returned. build-reports places the earlier snapshots
    /// its computed months read, if any (`placeEarlier`), and fills the movements after the month digest, when it
    /// knows the first month any report computes (`fillMovements`). `trialsFilled` runs once the snapshots, the spans
    /// and the trials are (the late session's `trial_conversion` reads the trials alone: `LateReports`).
    static func fill(settings: ReportSettings, database: PostgresConnection, spans: StoredSpans,
                     trialsFilled: () throws -> Void = {}) throws -> Int {
        let parameters = fillParameters(settings)
        try fillRelations(parameters: parameters, database: database, spans: spans.fill, only: ["snapshot", "span", "trial"])
        try trialsFilled()
        let firstUnstored = try StoredMonths.failing("snapshot parts") {
            try SnapshotParts.prepare(settings: settings, spans: spans, database: database)
        }
        let firstPlaced = max(1, firstUnstored - 1)
        // (unbounded when every snapshot is placed: no span is filtered, and no bound placed per span)
        let from: [any PostgresEncodable] = [firstPlaced > 1 ? try instant(of: firstPlaced, database: database) : nil]
        // A night's stored spans are a view of the open spans and of those ended by an instant (migration 0063:
        // `StoredSpans`); a placement from that instant on contradicts the second part's condition, which the planner
        // drops only when it checks every relation's conditions (its default checks partitions alone): on for the two
        // placements only (the view reads the whole store again after them: `StoredSpans.placed`). The same rows
        // either way; without it each placement reads every stored span.
        _ = try StoredMonths.failing("shared tables") { try database.execute("SET LOCAL constraint_exclusion = on") }
        for relation in placedRelations {
            try fillRelation(relation, source: "report_\(relation)($1, $2, $3, $4, $5::timestamptz, NULL)", parameters: parameters,
                             extra: from, database: database, spans: nil)
        }
        try StoredMonths.failing("shared tables") {
            try database.execute("SET LOCAL constraint_exclusion = partition")
            try spans.placed()
        }
        try StoredMonths.failing("snapshot parts") {
            try SnapshotParts.addPlaced(from: firstUnstored, settings: settings, database: database)
        }
        return firstPlaced
    }

    /// Places the contributions and the subscriber states on the snapshots before `firstPlaced` (what `fill` placed
    /// from) that the months from `month` on read: from the one before the first movement snapshot's on (the movement
    /// window's first values: `fillMovements` fills from `month`'s snapshot), every one when `month` is the run's first
    /// month (its movements are then windowed over every snapshot). Returns the first snapshot placed now.
    static func placeEarlier(settings: ReportSettings, from month: ReportMonth, firstPlaced: Int,
                             database: PostgresConnection) throws -> Int {
        guard firstPlaced > 1 else { return firstPlaced }
        let from: Int
        if month > settings.firstMonth {
            let row = try StoredMonths.failing("placing earlier snapshots") { try database.query("""
                SELECT \(movementsFrom("$1")) - 1 FROM pg_temp.report_snapshot_run s
                """, [month.firstDayText]).textRows().first }
            from = max(1, Int(row?.first.flatMap { $0 } ?? "") ?? 1)
        } else {
            from = 1
        }
        guard from < firstPlaced else { return firstPlaced }
        let parameters = fillParameters(settings) + [try instant(of: from, database: database),
                                                     try instant(of: firstPlaced, database: database)] as [any PostgresEncodable]
        for relation in placedRelations {
            try StoredMonths.failing("report_\(relation)") {
                try insertRows(into: "report_\(relation)_run", from: "report_\(relation)($1, $2, $3, $4, $5::timestamptz, $6::timestamptz)",
                               parameters: parameters, database: database)
            }
        }
        return from
    }

    /// The instant of the run's snapshot `n` (its text in this session, which reads back as the same instant); nil
    /// past the last one (an unbounded end of a range of snapshots).
    private static func instant(of n: Int, database: PostgresConnection) throws -> String? {
        try StoredMonths.failing("snapshots") {
            try database.query("SELECT at::text FROM pg_temp.report_snapshot_run WHERE n = $1", [n]).textRows().first?.first ?? nil
        }
    }

    /// The relations placed on the snapshots from the spans, which a night places on fewer snapshots than a full run.
    static let placedRelations = ["contribution", "subscriber_state"]

    /// Fills the movements (`report_movement`) at the snapshots from `month`'s on, which is all that the files computing
    /// months from `month` on read (mrr_bridge, mrr_movements, kpis, cohorts: each reads its computed snapshots' rows,
    /// whose p is the previous snapshot's value); every snapshot's when `month` is the run's first month. A night that
    /// computes its last month windows two snapshots' account values instead of every one (migration 0049;
    /// Reports/README.md, "Movements in a night"), and starts from the night before's when it may (`StoredMovements`,
    /// given the run's `spans`). After `fill`, in the same open transaction. Returns the last snapshot, whether the
    /// movements are at it alone and the instant of the stored ones they started from, if any (nil: none filled there).
    @discardableResult
    static func fillMovements(settings: ReportSettings, from month: ReportMonth, spans: StoredSpans? = nil,
                              database: PostgresConnection) throws -> (last: Int, alone: Bool, since: String?)? {
        try fillMovements(parameters: fillParameters(settings), database: database,
                          from: month > settings.firstMonth ? month.firstDayText : nil) { n in
            try StoredMonths.failing("report_movement") {
                try StoredMovements.since(settings: settings, spans: spans, n: n, database: database)
            }
        }
    }

    /// Indexes the run's spans by subscription when they are a table (a run that recomputed every span; otherwise a view
    /// of the store and the recomputed spans, both indexed so): a night's movements look up the spans of their window's
    /// first accounts' subscriptions (migration 0052), which without it is a scan of every span per account.
    public static func indexSpans(_ database: PostgresConnection) throws {
        try StoredMonths.failing("report_movement") {
            let kind = try database.query("SELECT c.relkind::text FROM pg_class c WHERE c.oid = to_regclass('pg_temp.report_span_run')")
                .textRows().first?.first ?? nil
            if kind == "r" {
                try database.execute("CREATE INDEX IF NOT EXISTS report_span_run_subscription ON pg_temp.report_span_run (subscription_id)")
            }
        }
    }

    /// The first snapshot a night's movements are filled at, over the run's snapshots `s`, given the first computed
    /// month's first day as `parameter`: that month's (past the last snapshot when no month is that late).
    private static func movementsFrom(_ parameter: String) -> String {
        "COALESCE(min(s.n) FILTER (WHERE s.month_start >= \(parameter)::date), max(s.n) + 1)"
    }

    /// Fills the movements for `parameters`: at every snapshot, or, given `from` (a month's first day), at the
    /// snapshots of that month and later (their window starts at the snapshot before them); past the last snapshot
    /// when no month is that late. When that is the last snapshot alone (a night's open month), its movements are
    /// its account values against the snapshot before's, hashed rather than windowed (`report_movement_at`,
    /// migration 0078: the same rows), or, when `since` gives the instant of the stored movements it may start from,
    /// those rows with the changed accounts' recomputed (`report_movement_since`, migration 0079). Returns the last
    /// snapshot, whether the movements are at it alone and the stored ones' instant, if used (nil: none filled there).
    @discardableResult
    private static func fillMovements(parameters: [any PostgresEncodable], database: PostgresConnection, from: String?,
                                      since: (Int) throws -> String? = { _ in nil }) throws -> (last: Int, alone: Bool, since: String?)? {
        guard let from else {
            try fillRelation("movement", source: "report_movement($1, $2, $3, $4)", parameters: parameters,
                             database: database, spans: nil)
            let last = try StoredMonths.failing("report_movement") {
                try database.query("SELECT max(n) FROM pg_temp.report_snapshot_run").textRows().first?.first.flatMap { $0 }
            }
            return last.flatMap { Int($0) }.map { ($0, $0 == 1, nil) }
        }
        try indexSpans(database)
        let row = try StoredMonths.failing("report_movement") {
            try database.query("SELECT \(movementsFrom("$1")), max(s.n) FROM pg_temp.report_snapshot_run s", [from])
                .textRows().first
        }
        let firstN = row?.first.flatMap { $0 }.flatMap { Int($0) }
        let lastN = row?.last.flatMap { $0 }.flatMap { Int($0) }
        guard let firstN, let lastN, firstN == lastN else {
            try fillRelation("movement", source: "report_movement($1, $2, $3, $4, $5::bigint)", parameters: parameters,
                             extra: [firstN.map { String($0) }], database: database, spans: nil)
            return firstN.flatMap { first in lastN.flatMap { first <= $0 ? ($0, false, nil) : nil } }
        }
        let stored = try since(lastN)
        if let stored {
            try StoredMonths.failing("report_movement") {
                try StoredMovements.findAffected(parameters: parameters, n: lastN, since: stored, database: database)
            }
            try fillRelation("movement", source: "report_movement_since($1, $2, $3, $4, $5::bigint)",
                             parameters: parameters, extra: [String(lastN)], database: database, spans: nil)
        } else {
            try fillRelation("movement", source: "report_movement_at($1, $2, $3, $4, $5::bigint, NULL)", parameters: parameters,
                             extra: [String(lastN)], database: database, spans: nil)
        }
        return (lastN, true, stored)
    }

    /// Fills the run's tables for `parameters` (as-of, first month, last month, basis: the report contract's $1, $2,
    /// $3 and $5) in the open transaction; after it, the `report_run_*` functions called with the same parameters read
    /// the tables. `spans`, when given, creates the temporary `report_span_run` and `report_trial_run` itself, given
    /// the relation and the table's name (a table or a view, outliving the transaction for it to store); otherwise
    /// every span and trial is computed (`report_span`, `report_trial`). Every snapshot's movements.
    public static func fill(parameters: [any PostgresEncodable], database: PostgresConnection,
                            spans: ((_ relation: String, _ table: String) throws -> Void)? = nil) throws {
        try fillRelations(parameters: parameters, database: database, spans: spans)
        try fillMovements(parameters: parameters, database: database, from: nil)
    }

    /// The report contract's $1, $2, $3 and $5 of `settings`: the parameters the run's tables are filled for.
    private static func fillParameters(_ settings: ReportSettings) -> [any PostgresEncodable] {
        let all = ReportQuery.parameters(settings)
        return [all[0], all[1], all[2], all[4]]
    }

    /// Creates `report_run_filled` and fills `relations` (those of them in `only`, when given) in order.
    private static func fillRelations(parameters: [any PostgresEncodable], database: PostgresConnection,
                                      spans: ((_ relation: String, _ table: String) throws -> Void)?,
                                      only: Set<String>? = nil) throws {
        try StoredMonths.failing("shared tables") {
            _ = try database.execute("CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled) ON COMMIT DROP")
            try ReusedCells.create(database, onCommitDrop: true)
        }
        for relation in relations where only?.contains(relation) ?? true {
            // (report_run_span and report_run_trial compute their rows while the table is not yet recorded as filled)
            let source = storedRelations.contains(relation) ? "report_run_\(relation)($1, $2, $3, $4)"
                                                            : "report_\(relation)($1, $2, $3, $4)"
            try fillRelation(relation, source: source, parameters: parameters, database: database, spans: spans)
        }
    }

    /// Creates `report_<relation>_run`, fills it from `source` (bound to `parameters` and then `extra`) and analyses it,
    /// or, for the spans and the trials when `spans` is given, has `spans` create it; records it as filled for
    /// `parameters`.
    private static func fillRelation(_ relation: String, source: String, parameters: [any PostgresEncodable],
                                     extra: [any PostgresEncodable] = [], database: PostgresConnection,
                                     spans: ((_ relation: String, _ table: String) throws -> Void)?) throws {
        let table = "report_\(relation)_run"
        try StoredMonths.failing("report_\(relation)") {
            if storedRelations.contains(relation), let spans {
                try spans(relation, table)
            } else {
                try database.execute("CREATE TEMP TABLE \(table) (LIKE public.\(table)) ON COMMIT DROP")
                try insertRows(into: table, from: source, parameters: parameters + extra, database: database)
            }
            // From here on the report_run_* function of this relation reads the table.
            try database.execute("""
                INSERT INTO pg_temp.report_run_filled (relation, as_of, first_month, last_month, basis)
                VALUES ('\(relation)', $1, $2, $3, $4)
                """, parameters)
        }
    }

    /// Appends the rows of `source` (bound to `parameters`) to the run's temporary `table` and analyses it.
    private static func insertRows(into table: String, from source: String, parameters: [any PostgresEncodable],
                                   database: PostgresConnection) throws {
        try database.execute("INSERT INTO pg_temp.\(table) SELECT * FROM \(source)", parameters)
        try database.execute("ANALYZE pg_temp.\(table)")
    }
}

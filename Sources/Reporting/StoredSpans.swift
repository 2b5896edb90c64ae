import Foundation
import JobKit
import Postgres

/// build-reports' stored spans (migration 0031; Reports/README.md, "Incremental runs"). What the contributions and the
/// subscriber states derive from a subscription's history, its spans (`report_span`), is stored per basis with the
/// digest of everything they read of it (`report_span_input`). A run digests every subscription (one scan of the
/// history, no sort), recomputes the spans of those whose digest differs from the stored one (new, changed or gone;
/// all of them under `--full`, with an empty store, or after the span functions changed) and reads the others' back;
/// after its snapshot commits it stores what it recomputed, each subscription's digest and spans together. Each
/// subscription's trial (`report_trial`, migration 0051), which reads nothing the digest does not cover, is stored,
/// recomputed and reused with its spans (Reports/README.md, "Stored trials"), computed by `SpanBuilder` from the
/// rows it reads for the spans (Reports/README.md, "Trials from the spans' stream").
final class StoredSpans {
    let settings: ReportSettings
    let database: PostgresConnection
    /// Every span was computed (nothing read back): `report_span_run` is a table of them (otherwise a view: `fill`).
    private(set) var recomputedAll = true
    /// The digest of the span functions (their SQL as installed) and of `SpanBuilder.rules`.
    private(set) var definition = ""
    /// The touched subscriptions' ids as one array value (PostgreSQL's text of a `uuid[]`), when not all were recomputed.
    private(set) var touchedIDs = "{}"
    /// The store's `generation` of the basis when the run read it (migration 0052): the stored snapshot parts are the
    /// store's while it is unchanged (`SnapshotParts`).
    private(set) var generation: Int64 = 0

    /// The touched subscriptions' ids (`touchedIDs`) when the others' spans were read from the store; nil when every
    /// span was recomputed.
    var touched: String? { recomputedAll ? nil : touchedIDs }

    /// Whether the span digests come from elsewhere (`loadDigests`) after the fill: set by a `--full` run whose second
    /// session computes them, which it needs only to store them. Then every span is recomputed.
    var digestsElsewhere = false
    /// The trials of the subscriptions whose spans the run computed, as `SpanBuilder` wrote them beside the spans (a
    /// binary COPY stream of `report_trial_run`'s columns), until `fillTrials` loads them; nil before the spans.
    private var builtTrials: SpillFile?
    /// The run's snapshot (`pg_current_snapshot()` of its transaction), stored with what it stores: a later night's
    /// changes are those of the transactions it did not see (migration 0053).
    private(set) var snapshot = ""
    /// The candidates since the store (`StoreChanges`) when only they were digested; nil when every subscription was.
    private var candidateIDs: String?
    /// The stored set's `open_after` (migration 0063: `report_stored_span_open` holds the stored spans open after it),
    /// as this session's text of the instant; nil when none are kept.
    private var openAfter: String?
    /// The instant the run keeps the open spans after when it stores (`OpenSpans.wantedInstant`).
    private(set) var openAfterWanted: String?
    /// Opens another connection to the database (the history's reader: `SpanBuilder`).
    private let connect: () throws -> PostgresConnection

    init(settings: ReportSettings, database: PostgresConnection, connect: @escaping () throws -> PostgresConnection) {
        self.settings = settings
        self.database = database
        self.connect = connect
    }

    /// Runs `body` with a connection of its own that reads the run's snapshot (exported from `database`'s transaction).
    @discardableResult
    private func withSnapshotReader<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let snapshot = try SnapshotSession.export(database, for: "report spans")
        let reader = try SnapshotSession.connect(connect, for: "report spans")
        defer {
            _ = try? reader.execute("COMMIT")
            reader.close()
        }
        try StoredMonths.failing("report spans") { try SnapshotSession.begin(reader, snapshot: snapshot) }
        return try body(reader)
    }

    /// Creates the run's temporary table `name` of `relation` (`SharedReportTables.storedRelations`): the spans,
    /// then the trials of the same subscriptions.
    func fill(_ relation: String, table name: String) throws {
        if relation == "trial" {
            try fillTrials(name)
        } else {
            try fillSpans(name)
        }
    }

    /// Creates the run's temporary `name` (`report_span_run`) in the run's transaction: the stored spans of the
    /// subscriptions whose digest is unchanged, and the recomputed spans of the others. When every span is recomputed,
    /// a table of them; otherwise a view of the store's spans less the touched subscriptions' and of the recomputed
    /// ones, which the contributions and the subscriber states read in place (copying a night's unchanged spans into
    /// a temporary table cost 2.2–3.9 s at 200k subscriptions and most of 13 s at 1M, reading them through the view
    /// ≈ 1 s more per placement at 200k: Reports/README.md, "Stored spans read in place").
    private func fillSpans(_ name: String) throws {
        let table = "pg_temp." + name
        let asOf = PostgresTimestamp.format(settings.asOf), basis = settings.basis.rawValue
        // Before any store is read, all of them at once: a run replacing a basis whole TRUNCATEs its partitions (`save`),
        // which is not MVCC-safe. It waits for this lock, or it committed before it and this (older) snapshot sees its
        // digests and spans both empty, so every subscription is recomputed: never spans without their digests.
        try database.execute("""
            LOCK TABLE report_stored_span_set, report_stored_span_input, report_stored_span, report_stored_span_open,
                report_stored_trial, report_stored_snapshot_part IN ACCESS SHARE MODE
            """)
        definition = try database.query("""
            SELECT md5(string_agg(p.prosrc, '|' ORDER BY p.proname) || $1) FROM pg_proc p
            WHERE p.pronamespace = 'public'::regnamespace
              AND p.proname IN ('report_span', 'report_span_history', 'report_span_input', 'report_row_rank', 'report_trial')
            """, [SpanBuilder.rules]).textRows().first?.first.flatMap { $0 } ?? ""
        let set = try database.query("""
            SELECT definition, generation, as_of, snapshot::text, open_after::text FROM report_stored_span_set WHERE basis = $1
            """, [basis]).textRows().first
        let stored = set?[0] ?? nil
        generation = Int64((set?[1] ?? nil) ?? "") ?? 0
        openAfter = set?[4] ?? nil
        openAfterWanted = try OpenSpans.wantedInstant(database)
        snapshot = try database.query("SELECT pg_current_snapshot()::text").textRows().first?.first.flatMap { $0 } ?? ""
        recomputedAll = settings.recomputeAll || digestsElsewhere || stored != definition
        if digestsElsewhere {
            try database.execute("CREATE TEMP TABLE report_span_input_new (\(SpanStore.columns(of: "report_span_input_new")))")
        } else if !recomputedAll, let sinceAsOf = set?[2] ?? nil, let since = set?[3] ?? nil,
                  let ids = try StoreChanges.since(database, basis: basis, asOf: asOf, sinceAsOf: sinceAsOf, since: since)?.ids {
            candidateIDs = ids
            try database.execute("""
                CREATE TEMP TABLE report_span_input_new AS SELECT * FROM report_span_input($1, $2, $3::uuid[])
                """, [asOf, basis, ids])
        } else {
            try database.execute("""
                CREATE TEMP TABLE report_span_input_new AS SELECT * FROM report_span_input($1, $2)
                """, [asOf, basis])
        }
        try database.execute("CREATE TEMP TABLE report_span_hash_new (\(SpanStore.columns(of: "report_span_hash_new")))")
        let trials = try SpillFile(purpose: "report trials")
        builtTrials = trials
        if recomputedAll {
            try database.execute("CREATE TEMP TABLE \(name) (LIKE public.\(name))")
            try withSnapshotReader { reader in
                try SpanBuilder.fill(table, hashTable: "pg_temp.report_span_hash_new", trials: trials, database: database,
                                     reader: reader, asOf: asOf, basis: basis, subscriptions: nil)
            }
            try database.execute("ANALYZE \(table)")
            if !digestsElsewhere { try markAllTouched() }
            return
        }
        // Changed, new or gone: the digests differ (a subscription on one side only differs from nothing). When only
        // the candidates were digested, only theirs are compared: the others' are the stored ones.
        let compared = candidateIDs == nil ? "" : " AND subscription_id = ANY ($2::uuid[])"
        try database.execute("""
            CREATE TEMP TABLE report_span_touched AS
            SELECT COALESCE(n.subscription_id, o.subscription_id) AS subscription_id
            FROM pg_temp.report_span_input_new n
            FULL JOIN (SELECT * FROM report_stored_span_input WHERE basis = $1\(compared)) o USING (subscription_id)
            WHERE n.row_count IS DISTINCT FROM o.row_count OR n.hash_sum IS DISTINCT FROM o.hash_sum
            """, candidateIDs.map { [basis, $0] } ?? [basis])
        // Indexed: a look-up of one subscription's spans through the view (the movements' "paid before") asks it.
        try database.execute("CREATE INDEX ON pg_temp.report_span_touched (subscription_id)")
        try database.execute("ANALYZE pg_temp.report_span_touched")
        // The touched ids bound as one array value, so the planner hashes it (a constant) when filtering subscriptions,
        // and knows how many there are when `save` deletes their stored rows (by the stored spans' index: joined to the
        // touched table, it guessed half the store and scanned all of it, 2.9 s of 12M spans at 1M subscriptions).
        touchedIDs = try database.query("SELECT COALESCE(array_agg(subscription_id), '{}')::text FROM pg_temp.report_span_touched")
            .textRows().first?.first.flatMap { $0 } ?? "{}"
        // Kept apart as well, so `save` stores them without reading every span of the run again, and the correction of
        // the stored snapshot parts reads them (it shadows the schema's placeholder of that name: migration 0068).
        try database.execute("CREATE TEMP TABLE report_span_recomputed (LIKE public.report_span_run)")
        try withSnapshotReader { reader in
            try SpanBuilder.fill("pg_temp.report_span_recomputed", hashTable: "pg_temp.report_span_hash_new", trials: trials,
                                 database: database, reader: reader, asOf: asOf, basis: basis, subscriptions: touchedIDs)
        }
        // Indexed like the store: a night's movements look up the spans of a few accounts' subscriptions (0052).
        try database.execute("CREATE INDEX ON pg_temp.report_span_recomputed (subscription_id)")
        try database.execute("ANALYZE pg_temp.report_span_recomputed")
        // What differs between the touched subscriptions' recomputed and stored spans, counted once (migration 0071):
        // the correction of the stored snapshot parts places it (`SnapshotParts`) and storing writes only it (`save`).
        try database.execute("""
            CREATE TEMP TABLE report_span_difference AS SELECT * FROM report_span_difference($1, $2::uuid[])
            """, [basis, touchedIDs])
        // With the open spans kept (migration 0063), the store's side is the open spans and the stored ones that end
        // at or before their instant: the same spans, and a placement from that instant on reads the first part alone
        // (the planner drops the second, whose end contradicts the placement's: `constraint_exclusion`). After the
        // placements the view is the whole store again (`placed`).
        try createStoreView(name, stores: OpenSpans.stores(openAfter: openAfter), columns: Self.columns,
                            recomputed: "report_span_recomputed")
    }

    /// After the contributions and the subscriber states are placed: a night's `report_span_run` read through the open
    /// spans is the store's spans less the touched subscriptions' and the recomputed ones again (the same spans), so
    /// what reads a few subscriptions' spans by index — the movements' "paid before" — asks two tables, not three (at
    /// 1M subscriptions, 64,000 accounts' look-ups read 0.7 s longer through three).
    func placed() throws {
        guard !recomputedAll, openAfter != nil else { return }
        try createStoreView("report_span_run", stores: [("report_stored_span", "")], columns: Self.columns,
                            recomputed: "report_span_recomputed", replacing: true)
    }

    /// Creates (or, `replacing`, replaces) the temporary view `name`: the basis's rows of each of `stores` (a table, and
    /// a further condition on its rows `s`) less the touched subscriptions', and the touched ones' `recomputed` rows
    /// (`columns` of each). The basis is one of the two enum values, written into the view as a literal (a view takes
    /// no parameters).
    private func createStoreView(_ name: String, stores: [(table: String, condition: String)], columns: String,
                                 recomputed: String, replacing: Bool = false) throws {
        let stored = stores.map { store in
            """
            SELECT \(columns) FROM \(store.table) s
            WHERE s.basis = '\(settings.basis.rawValue)'\(store.condition)
              AND NOT EXISTS (SELECT 1 FROM pg_temp.report_span_touched t WHERE t.subscription_id = s.subscription_id)
            """
        }
        try database.execute("CREATE \(replacing ? "OR REPLACE " : "")TEMP VIEW \(name) AS\n"
                             + (stored + ["SELECT * FROM pg_temp.\(recomputed)"]).joined(separator: "\nUNION ALL\n"))
    }

    /// Creates the run's temporary `name` (`report_trial_run`) after the spans, from the trials `SpanBuilder` computed
    /// with them: every trial when every span was computed; otherwise a view of the stored trials less the touched
    /// subscriptions' and of the touched ones' (`report_trial_recomputed`).
    private func fillTrials(_ name: String) throws {
        guard let trials = builtTrials else {
            throw JobError.failed("report trials: asked for before the spans were filled")
        }
        builtTrials = nil
        let table = recomputedAll ? name : "report_trial_recomputed"
        try database.execute("CREATE TEMP TABLE \(table) (LIKE public.report_trial_run)")
        _ = try StoredMonths.failing("report trials") { try database.copyIn("pg_temp." + table, binaryFrom: trials) }
        if recomputedAll {
            try database.execute("ANALYZE pg_temp.\(name)")
            return
        }
        try createStoreView(name, stores: [("report_stored_trial", "")], columns: Self.trialColumns,
                            recomputed: "report_trial_recomputed")
    }

    /// Every subscription with a digest was recomputed.
    private func markAllTouched() throws {
        try database.execute("CREATE TEMP TABLE report_span_touched AS SELECT subscription_id FROM report_span_input_new")
    }

    /// Loads the span digests computed elsewhere (`digestsElsewhere`: `SpanStreams.digests` in the second session) into the
    /// run's digest table, after the fill and before `counts` and `save`.
    func loadDigests(_ rows: SpillFile) throws {
        try StoredMonths.failing("span digests") {
            try database.copyIn("pg_temp.report_span_input_new", binaryFrom: rows)
            try markAllTouched()
        }
    }

    /// The subscriptions whose spans the run computed, and those it read back from the store (when only the
    /// candidates were digested, the stored digests of the others count as read back), read on the job's connection.
    func counts() throws -> (recomputed: Int, reused: Int) {
        try Self.counts(countsQuery, on: database)
    }

    /// The query of `counts` and its parameters, which read the run's digests and touched subscriptions and the store:
    /// a night's storing connection (`SpanStorer`) runs it on its copies of those tables, beside the files.
    var countsQuery: (sql: String, parameters: [String]) {
        let others = candidateIDs == nil ? "0" : """
            (SELECT count(*) FROM report_stored_span_input s
             WHERE s.basis = $1 AND NOT s.subscription_id = ANY ($2::uuid[]))
            """
        return ("""
            SELECT (SELECT count(*) FROM pg_temp.report_span_touched),
                   (SELECT count(*) FROM pg_temp.report_span_input_new) - (SELECT count(*) FROM pg_temp.report_span_input_new n
                       WHERE EXISTS (SELECT 1 FROM pg_temp.report_span_touched t WHERE t.subscription_id = n.subscription_id))
                   + \(others)
            """, candidateIDs.map { [settings.basis.rawValue, $0] } ?? [])
    }

    /// Runs `query` (`countsQuery`) on `db`: the subscriptions recomputed and reused.
    static func counts(_ query: (sql: String, parameters: [String]), on db: PostgresConnection) throws -> (recomputed: Int, reused: Int) {
        let row = try StoredMonths.failing("stored spans") { try db.query(query.sql, query.parameters).textRows().first }
        return (Int(row?[0] ?? "") ?? 0, Int(row?[1] ?? "") ?? 0)
    }

    /// The stored spans' columns (those of the run's `report_span_run`).
    static let columns = "subscription_id, provider, billing_account_id, state, from_at, to_at, currency, country, "
        + "product_id, plan_id, billing_period, twelfths"

    /// The stored trials' columns.
    static let trialColumns = "subscription_id, provider, trial_at, trial_product, trial_country, converted_at, "
        + "failed_at, ended_at, off_at, on_at"
}

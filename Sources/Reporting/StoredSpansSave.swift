import Foundation
import JobKit
import Postgres

/// What a run stores of its spans, and the transaction that stores it (`write`): the changed subscriptions' digests,
/// trials and spans, the open spans, the snapshot parts, the set, and what the run reads beside the spans. Values
/// only, and the run's temporary tables by name, so a night's store is written on the job's connection after its files
/// (`StoredSpans.save`) or on one of its own beside them (`SpanStorer`, with copies of those tables).
struct SpanStore: Sendable {
    let basis: String
    /// The digest of the span functions the run computed with (`StoredSpans`).
    let definition: String
    /// The store's `generation` when the run read it.
    let generation: Int64
    /// Every span was computed (`report_span_run` is a table of them); otherwise a night's touched subscriptions' were.
    let recomputedAll: Bool
    /// A night's touched subscriptions (one array value).
    let touchedIDs: String
    /// The instant the run keeps the open spans after (`OpenSpans.wantedInstant`).
    let openAfterWanted: String?
    /// The run's as-of instant and snapshot (`pg_current_snapshot()`), stored with the set.
    let asOf: String, snapshot: String

    /// The run's temporary tables a night's store reads, each with its columns, in the order `SpanStorer` copies them.
    static let nightTables: [(name: String, columns: String)] = [
        ("report_span_touched", "subscription_id uuid"),
        ("report_span_input_new", "subscription_id uuid, row_count bigint, hash_sum numeric"),
        ("report_span_hash_new", "subscription_id uuid, span_hash bigint"),
        ("report_span_difference", "LIKE public.report_span_difference"),
        ("report_trial_recomputed", "LIKE public.report_trial_run"),
        ("report_snapshot_part_run", SnapshotParts.columns),
    ]

    /// The columns of `table`, one of `nightTables` (the job's session creates the same tables with them).
    static func columns(of table: String) -> String {
        nightTables.first { $0.name == table }?.columns ?? ""
    }

    /// The statements of the storing transaction, on `db` inside it. A run that recomputed every span replaces the
    /// basis whole when the store holds spans of other span functions (or none), and otherwise only the subscriptions
    /// whose digest or span hash differs from the stored ones (migration 0047: equal spans are left as they are). A
    /// night stores only when the store is still the one it read (no run stored since; otherwise that run's store
    /// stays as it is, whole, and the next night recomputes what this one did): its touched subscriptions' digests and
    /// trials, and of their spans those that differ (`report_span_difference`). The run's snapshot parts
    /// (`SnapshotParts`) are stored with the spans under the next `generation`. `beside` stores what the run reads
    /// beside the spans from the changes since (the month history's row part, the failure episodes) in the same
    /// transaction.
    func write(_ db: PostgresConnection, beside: (PostgresConnection) throws -> Void) throws {
        _ = try db.execute("LOCK TABLE report_stored_span_set IN SHARE ROW EXCLUSIVE MODE")
        let set = try db.query("SELECT definition, generation FROM report_stored_span_set WHERE basis = $1", [basis])
            .textRows().first
        let current = set?[0] ?? nil, currentGeneration = Int64((set?[1] ?? nil) ?? "") ?? 0
        let changed: OpenSpans.Change?
        if recomputedAll && current != definition {
            try replaceWhole(db)
            changed = nil
        } else if recomputedAll {
            changed = try replaceChanged(db)
        } else if current == definition && currentGeneration == generation {
            changed = try storeDifference(db)
        } else {
            return
        }
        let openAfter = try OpenSpans.keep(db, basis: basis, wanted: openAfterWanted, changed: changed, columns: StoredSpans.columns)
        let next = currentGeneration + 1
        try SnapshotParts.save(db, basis: basis, generation: next, asOf: asOf, keep: true)
        _ = try db.execute("DELETE FROM report_stored_span_set WHERE basis = $1", [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_span_set (basis, definition, generation, as_of, snapshot, open_after)
            VALUES ($1, $2, $3, $4, $5::pg_snapshot, $6::timestamptz)
            """, [basis, definition, next, asOf, snapshot, openAfter])
        try beside(db)
        // What every stored snapshot saw is no change to any later run.
        _ = try db.execute("""
            DELETE FROM report_history_change
            WHERE xid < (SELECT min(pg_snapshot_xmin(s.snapshot)) FROM report_stored_span_set s WHERE s.snapshot IS NOT NULL)
            """)
    }

    /// The new digests with the span hashes, as the store holds them.
    private static let newDigests = """
        SELECT n.subscription_id, n.row_count, n.hash_sum, h.span_hash
        FROM pg_temp.report_span_input_new n LEFT JOIN pg_temp.report_span_hash_new h USING (subscription_id)
        """

    /// Replaces the basis's partitions whole (migration 0037): emptied and their index dropped by the owner's function
    /// (0039: the job role owns no table), filled without the index, which is built after; the digests in subscription
    /// order, so their primary key is appended to.
    private func replaceWhole(_ db: PostgresConnection) throws {
        _ = try db.execute("SELECT report_stored_span_empty($1)", [basis])
        _ = try db.execute("INSERT INTO report_stored_span (basis, \(StoredSpans.columns)) SELECT $1, \(StoredSpans.columns) FROM pg_temp.report_span_run", [basis])
        _ = try db.execute("SELECT report_stored_span_index($1)", [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_span_input (basis, subscription_id, row_count, hash_sum, span_hash)
            SELECT $1, d.* FROM (\(Self.newDigests)) d ORDER BY d.subscription_id
            """, [basis])
        _ = try db.execute("DELETE FROM report_stored_trial WHERE basis = $1", [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_trial (basis, \(StoredSpans.trialColumns))
            SELECT $1, \(StoredSpans.trialColumns) FROM pg_temp.report_trial_run t ORDER BY t.subscription_id
            """, [basis])
    }

    /// Stores a night's recomputed subscriptions when the store is still the one it read (no run stored since): their
    /// digests and trials replaced, and of their spans only those that differ from the stored ones
    /// (`report_span_difference`, counted when the run filled its spans: each such span's stored copies deleted and its
    /// recomputed ones inserted). Returns that change, for the open spans.
    private func storeDifference(_ db: PostgresConnection) throws -> OpenSpans.Change {
        try replaceDigestsAndTrials(db, ids: touchedIDs, of: "report_span_touched", trials: "report_trial_recomputed")
        // (the subscriptions with a differing span, bound as one array value: `OpenSpans.Change.apply`)
        let ids = try db.query("SELECT COALESCE(array_agg(DISTINCT subscription_id), '{}')::text FROM pg_temp.report_span_difference")
            .textRows().first?.first.flatMap { $0 } ?? "{}"
        let change = OpenSpans.Change.differing(ids: ids)
        try change.apply(db, to: "report_stored_span", basis: basis, columns: StoredSpans.columns)
        return change
    }

    /// Replaces the stored digests and trials of the subscriptions `ids` (one array value; also the run's table `of`
    /// of their ids) with the run's: its new digests and span hashes, and its table of their `trials`.
    private func replaceDigestsAndTrials(_ db: PostgresConnection, ids: String, of table: String, trials: String) throws {
        let key: [any PostgresEncodable] = [basis, ids]
        _ = try db.execute("DELETE FROM report_stored_span_input WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", key)
        _ = try db.execute("DELETE FROM report_stored_trial WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", key)
        _ = try db.execute("""
            INSERT INTO report_stored_trial (basis, \(StoredSpans.trialColumns))
            SELECT $1, \(StoredSpans.trialColumns) FROM pg_temp.\(trials) t
            WHERE EXISTS (SELECT 1 FROM pg_temp.\(table) c WHERE c.subscription_id = t.subscription_id)
            """, [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_span_input (basis, subscription_id, row_count, hash_sum, span_hash)
            SELECT $1, d.* FROM (\(Self.newDigests)) d
            WHERE EXISTS (SELECT 1 FROM pg_temp.\(table) c WHERE c.subscription_id = d.subscription_id)
            """, [basis])
    }

    /// After a full computation, replaces the stored rows of the subscriptions whose digest or span hash differs from
    /// the stored one (new and gone ones too), found by comparing the digests, by the stored spans' index. Returns that
    /// change (for the open spans); nil when it replaced the basis whole instead.
    private func replaceChanged(_ db: PostgresConnection) throws -> OpenSpans.Change? {
        _ = try db.execute("""
                CREATE TEMP TABLE report_span_changed AS
                SELECT COALESCE(n.subscription_id, o.subscription_id) AS subscription_id
                FROM (\(Self.newDigests)) n
                FULL JOIN (SELECT * FROM report_stored_span_input WHERE basis = $1) o USING (subscription_id)
                WHERE n.row_count IS DISTINCT FROM o.row_count OR n.hash_sum IS DISTINCT FROM o.hash_sum
                   OR n.span_hash IS DISTINCT FROM o.span_hash
                """, [basis])
        _ = try db.execute("ANALYZE pg_temp.report_span_changed")
        // Most subscriptions changed (the first run after the span hashes were added, a restated history): rewriting
        // the basis whole is cheaper than finding each one's rows.
        if let counts = try db.query("""
            SELECT (SELECT count(*) FROM pg_temp.report_span_changed), (SELECT count(*) FROM pg_temp.report_span_input_new)
            """).textRows().first, let changedCount = Int(counts[0] ?? ""), let all = Int(counts[1] ?? ""), changedCount * 10 > all {
            try replaceWhole(db)
            return nil
        }
        let changed = try db.query("SELECT COALESCE(array_agg(subscription_id), '{}')::text FROM pg_temp.report_span_changed")
            .textRows().first?.first.flatMap { $0 } ?? "{}"
        // The ids bound as one array value: the planner then finds their stored rows by index (joined to the table, it
        // guessed half the store and scanned all of it, 2.9 s of 12M spans at 1M subscriptions).
        try replaceDigestsAndTrials(db, ids: changed, of: "report_span_changed", trials: "report_trial_run")
        let change = OpenSpans.Change.replaced(ids: changed, spans: "report_span_run")
        try change.apply(db, to: "report_stored_span", basis: basis, columns: StoredSpans.columns)
        return change
    }
}

extension StoredSpans {
    /// What the run stores of its spans, from what it read and computed.
    var store: SpanStore {
        SpanStore(basis: settings.basis.rawValue, definition: definition, generation: generation, recomputedAll: recomputedAll,
                  touchedIDs: touchedIDs, openAfterWanted: openAfterWanted,
                  asOf: PostgresTimestamp.format(settings.asOf), snapshot: snapshot)
    }

    /// Whether the run is a night whose store can be written beside its files, on a connection of its own with copies
    /// of the few run tables it reads (`SpanStorer`); a run that recomputed every span stores from all of them, after
    /// its files (`save`).
    var storesBeside: Bool { !recomputedAll }

    /// After the run's snapshot committed: stores what it recomputed (`SpanStore.write`) on the job's connection, in a
    /// transaction of its own, unless `keep` is false; then drops the run's tables (`dropTables`).
    func save(keep: Bool, beside: (PostgresConnection) throws -> Void) throws {
        if keep {
            try StoredMonths.failing("storing spans") {
                try database.transaction { db in try store.write(db, beside: { try beside($0) }) }
            }
        }
        try dropTables()
    }

    /// Drops the run's tables of spans and trials, once the snapshot committed and nothing reads them.
    func dropTables() throws {
        try StoredMonths.failing("storing spans") {
            // The views first (an incremental run's `report_span_run` and `report_trial_run`: `fill`): they depend on
            // the tables.
            try database.execute("DROP \(recomputedAll ? "TABLE" : "VIEW") IF EXISTS pg_temp.report_span_run, pg_temp.report_trial_run")
            try database.execute("""
                DROP TABLE IF EXISTS pg_temp.report_span_input_new, pg_temp.report_span_touched,
                    pg_temp.report_span_recomputed, pg_temp.report_span_hash_new, pg_temp.report_span_changed,
                    pg_temp.report_span_difference, pg_temp.report_trial_recomputed, pg_temp.report_snapshot_part_run
                """)
        }
    }
}

extension SpanStore {
    /// What the run stores beside its spans, in their transaction (`SpanStore.write`): the stores read from the changes
    /// since — the month history's row part, the per-subscription facts, refunds' paid counts and the price-change
    /// facts — as the second and late sessions computed them (each waited for).
    static func beside(settings: ReportSettings, history: HistoryReports?, late: LateReports?) -> @Sendable (PostgresConnection) throws -> Void {
        let basis = settings.basis.rawValue, asOfMonth = settings.asOfMonth.firstDayText
        return { db in
            let facts = (try history?.subscriptionFacts() ?? []) + (late?.facts() ?? [])
            try MonthHistory.save(db, basis: basis, before: asOfMonth, rows: try history?.monthHistory())
            for kind in SubscriptionFacts.all {
                try kind.save(db, basis: basis, asOfMonth: asOfMonth, computed: facts.first { $0.facts.name == kind.name })
            }
            try PaidCounts.save(db, basis: basis, rows: try history?.paidCounts())
            try PriceChangeFacts.save(db, basis: basis, computed: try history?.priceChangeFacts())
        }
    }
}

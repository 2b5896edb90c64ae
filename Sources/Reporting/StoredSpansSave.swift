import Foundation
import JobKit
import Postgres

/// How a run stores what it recomputed (`StoredSpans`): after its snapshot committed, in a transaction of its own,
/// the changed subscriptions' digests, trials and spans, the open spans and the snapshot parts, and what the run reads
/// beside the spans.
extension StoredSpans {
    /// After the run's snapshot committed: stores what it recomputed, in a transaction of its own, and drops the run's
    /// tables; with `keep` false only drops them. A run that recomputed every span replaces the basis whole when the
    /// store holds spans of other span functions (or none), and otherwise only the subscriptions whose digest or span
    /// hash differs from the stored ones (migration 0047: equal spans are left as they are); an incremental run
    /// replaces its touched subscriptions, and stores nothing when the store was meanwhile rebuilt with other span
    /// functions. The run's snapshot parts (`SnapshotParts`) are stored with the spans under the next `generation` when
    /// they describe the store as this transaction leaves it: always after a run that recomputed every span (the store
    /// is then its spans), after an incremental one only when no other run stored spans since this one read them;
    /// otherwise the basis's parts are deleted (a later night places every snapshot once). `beside` stores what the
    /// run reads beside the spans from the changes since (the month history's row part, the failure episodes) in the
    /// same transaction, told whether the set's as-of instant and snapshot are this run's.
    func save(keep: Bool, beside: (PostgresConnection, Bool) throws -> Void = { _, _ in }) throws {
        let basis = settings.basis.rawValue
        try StoredMonths.failing("storing spans") {
            if keep {
                try database.transaction { db in
                    _ = try db.execute("LOCK TABLE report_stored_span_set IN SHARE ROW EXCLUSIVE MODE")
                    let set = try db.query("SELECT definition, generation FROM report_stored_span_set WHERE basis = $1", [basis])
                        .textRows().first
                    let current = set?[0] ?? nil, currentGeneration = Int64((set?[1] ?? nil) ?? "") ?? 0
                    guard recomputedAll || current == definition else { return }
                    let changed: OpenSpans.Change?
                    if recomputedAll && current != definition {
                        try replaceWhole(db, basis: basis)
                        changed = nil
                    } else if !recomputedAll && currentGeneration == generation {
                        changed = try storeDifference(db, basis: basis)
                    } else {
                        changed = try replaceChanged(db, basis: basis)
                    }
                    let openAfter = try OpenSpans.keep(db, basis: basis, wanted: openAfterWanted, changed: changed,
                                                       columns: Self.columns)
                    let next = currentGeneration + 1
                    // The store is this run's unless another run stored since this one read it: then its parts are not
                    // kept, and its as-of instant and snapshot are unknown (the next run digests every subscription).
                    let known = recomputedAll || currentGeneration == generation
                    try SnapshotParts.save(db, basis: basis, generation: next, asOf: PostgresTimestamp.format(settings.asOf),
                                           keep: known)
                    _ = try db.execute("DELETE FROM report_stored_span_set WHERE basis = $1", [basis])
                    _ = try db.execute("""
                        INSERT INTO report_stored_span_set (basis, definition, generation, as_of, snapshot, open_after)
                        VALUES ($1, $2, $3, $4, $5::pg_snapshot, $6::timestamptz)
                        """, [basis, definition, next, known ? PostgresTimestamp.format(settings.asOf) : String?.none,
                               known ? snapshot : String?.none, openAfter])
                    try beside(db, known)
                    // What every stored snapshot saw is no change to any later run.
                    _ = try db.execute("""
                        DELETE FROM report_history_change
                        WHERE xid < (SELECT min(pg_snapshot_xmin(s.snapshot)) FROM report_stored_span_set s WHERE s.snapshot IS NOT NULL)
                        """)
                }
            }
            // The views first (an incremental run's `report_span_run` and `report_trial_run`: `fill`): they depend on
            // the tables.
            try database.execute("DROP \(recomputedAll ? "TABLE" : "VIEW") IF EXISTS pg_temp.report_span_run, pg_temp.report_trial_run")
            try database.execute("""
                DROP TABLE IF EXISTS pg_temp.report_span_input_new, pg_temp.report_span_touched,
                    pg_temp.report_span_recomputed, pg_temp.report_span_hash_new, pg_temp.report_span_changed,
                    pg_temp.report_span_difference,
                    pg_temp.report_trial_recomputed, pg_temp.report_snapshot_part_run
                """)
        }
    }

    /// The new digests with the span hashes, as the store holds them.
    private static let newDigests = """
        SELECT n.subscription_id, n.row_count, n.hash_sum, h.span_hash
        FROM pg_temp.report_span_input_new n LEFT JOIN pg_temp.report_span_hash_new h USING (subscription_id)
        """

    /// Replaces the basis's partitions whole (migration 0037): emptied and their index dropped by the owner's function
    /// (0039: the job role owns no table), filled without the index, which is built after; the digests in subscription
    /// order, so their primary key is appended to.
    private func replaceWhole(_ db: PostgresConnection, basis: String) throws {
        _ = try db.execute("SELECT report_stored_span_empty($1)", [basis])
        _ = try db.execute("INSERT INTO report_stored_span (basis, \(Self.columns)) SELECT $1, \(Self.columns) FROM pg_temp.report_span_run", [basis])
        _ = try db.execute("SELECT report_stored_span_index($1)", [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_span_input (basis, subscription_id, row_count, hash_sum, span_hash)
            SELECT $1, d.* FROM (\(Self.newDigests)) d ORDER BY d.subscription_id
            """, [basis])
        _ = try db.execute("DELETE FROM report_stored_trial WHERE basis = $1", [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_trial (basis, \(Self.trialColumns))
            SELECT $1, \(Self.trialColumns) FROM pg_temp.report_trial_run t ORDER BY t.subscription_id
            """, [basis])
    }

    /// Stores a night's recomputed subscriptions when the store is still the one it read (no run stored since): their
    /// digests and trials replaced, and of their spans only those that differ from the stored ones
    /// (`report_span_difference`, counted when the run filled its spans: each such span's stored copies deleted and its
    /// recomputed ones inserted). Returns that change, for the open spans.
    private func storeDifference(_ db: PostgresConnection, basis: String) throws -> OpenSpans.Change {
        try replaceDigestsAndTrials(db, basis: basis, ids: touchedIDs, of: "report_span_touched", trials: "report_trial_recomputed")
        let change = OpenSpans.Change.differing(ids: differingIDs)
        try change.apply(db, to: "report_stored_span", basis: basis, columns: Self.columns)
        return change
    }

    /// Replaces the stored digests and trials of the subscriptions `ids` (one array value; also the run's table `of`
    /// of their ids) with the run's: its new digests and span hashes, and its table of their `trials`.
    private func replaceDigestsAndTrials(_ db: PostgresConnection, basis: String, ids: String, of table: String, trials: String) throws {
        let key: [any PostgresEncodable] = [basis, ids]
        _ = try db.execute("DELETE FROM report_stored_span_input WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", key)
        _ = try db.execute("DELETE FROM report_stored_trial WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", key)
        _ = try db.execute("""
            INSERT INTO report_stored_trial (basis, \(Self.trialColumns))
            SELECT $1, \(Self.trialColumns) FROM pg_temp.\(trials) t
            WHERE EXISTS (SELECT 1 FROM pg_temp.\(table) c WHERE c.subscription_id = t.subscription_id)
            """, [basis])
        _ = try db.execute("""
            INSERT INTO report_stored_span_input (basis, subscription_id, row_count, hash_sum, span_hash)
            SELECT $1, d.* FROM (\(Self.newDigests)) d
            WHERE EXISTS (SELECT 1 FROM pg_temp.\(table) c WHERE c.subscription_id = d.subscription_id)
            """, [basis])
    }

    /// Replaces the stored rows of the subscriptions whose spans changed: after a full computation, those whose
    /// digest or span hash differs from the stored one (new and gone ones too), found by comparing the digests; after
    /// an incremental one, the touched ones (whose spans were computed, kept apart). Found by the stored spans' index.
    /// Returns their ids (one array value) and the run's table holding their spans; nil when it replaced the basis
    /// whole instead.
    private func replaceChanged(_ db: PostgresConnection, basis: String) throws -> OpenSpans.Change? {
        let spans: String, trials: String
        if recomputedAll {
            _ = try db.execute("""
                CREATE TEMP TABLE report_span_changed AS
                SELECT COALESCE(n.subscription_id, o.subscription_id) AS subscription_id
                FROM (\(Self.newDigests)) n
                FULL JOIN (SELECT * FROM report_stored_span_input WHERE basis = $1) o USING (subscription_id)
                WHERE n.row_count IS DISTINCT FROM o.row_count OR n.hash_sum IS DISTINCT FROM o.hash_sum
                   OR n.span_hash IS DISTINCT FROM o.span_hash
                """, [basis])
            (spans, trials) = ("report_span_run", "report_trial_run")
        } else {
            _ = try db.execute("CREATE TEMP TABLE report_span_changed AS SELECT subscription_id FROM pg_temp.report_span_touched")
            (spans, trials) = ("report_span_recomputed", "report_trial_recomputed")
        }
        _ = try db.execute("ANALYZE pg_temp.report_span_changed")
        // Most subscriptions changed (the first run after the span hashes were added, a restated history): rewriting
        // the basis whole is cheaper than finding each one's rows.
        if recomputedAll, let counts = try db.query("""
            SELECT (SELECT count(*) FROM pg_temp.report_span_changed), (SELECT count(*) FROM pg_temp.report_span_input_new)
            """).textRows().first, let changedCount = Int(counts[0] ?? ""), let all = Int(counts[1] ?? ""), changedCount * 10 > all {
            try replaceWhole(db, basis: basis)
            return nil
        }
        let changed = try db.query("SELECT COALESCE(array_agg(subscription_id), '{}')::text FROM pg_temp.report_span_changed")
            .textRows().first?.first.flatMap { $0 } ?? "{}"
        // The ids bound as one array value: the planner then finds their stored rows by index (joined to the table, it
        // guessed half the store and scanned all of it, 2.9 s of 12M spans at 1M subscriptions).
        try replaceDigestsAndTrials(db, basis: basis, ids: changed, of: "report_span_changed", trials: trials)
        let change = OpenSpans.Change.replaced(ids: changed, spans: spans)
        try change.apply(db, to: "report_stored_span", basis: basis, columns: Self.columns)
        return change
    }
}

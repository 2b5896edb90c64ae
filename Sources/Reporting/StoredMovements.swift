import Foundation
import JobKit
import Postgres

/// The open month's movements kept from one night to the next (migration 0079; Reports/README.md, "The open month's
/// movements from the night before"). A night that stores its spans stores, in the same transaction, its movement rows
/// at its last snapshot (`HandOff`: the job's session spills them once the movements are filled, the storer loads
/// them); the next night of the same months takes them for every account whose spans did not change and none of whose
/// paying spans starts or ends between the two nights' last snapshots, and recomputes the others' (migration 0080:
/// `findAffected`, then `report_movement_since`), and then patches the store with those accounts' rows alone.
enum StoredMovements {
    /// What a run's movement rows at its last snapshot are, as `report_stored_movement_set` records them.
    struct Key: Sendable {
        let basis: String, firstMonth: String, lastMonth: String
        /// The last snapshot, its instant and the instant of the one before (this session's text of each).
        let n: Int, at: String, beforeAt: String
    }

    /// The instant of the stored movements' last snapshot (this session's text) when a night may start from them for
    /// its movements at snapshot `n`, its last: they were computed from the spans the run read (the store's
    /// `generation`, whose open spans are those after the snapshot before `n`: `report_movement_since` finds the
    /// accounts to recompute there), for the same basis and months, at the same snapshot whose instant is not later
    /// than the run's, with the same snapshot before it. nil otherwise, and when the run recomputed every span (it has
    /// no differing spans to tell the changed accounts by).
    static func since(settings: ReportSettings, spans: StoredSpans?, n: Int, database: PostgresConnection) throws -> String? {
        guard let spans, spans.touched != nil, n > 1 else { return nil }
        return try database.query("""
            SELECT m.at::text
            FROM report_stored_movement_set m
            JOIN report_stored_span_set s ON s.basis = m.basis AND s.generation = m.generation AND s.open_after = m.before_at
            WHERE m.basis = $1 AND m.generation = $2 AND m.first_month = $3::timestamptz AND m.last_month = $4::timestamptz
              AND m.n = $5 AND m.before_at = (SELECT r.at FROM pg_temp.report_snapshot_run r WHERE r.n = $5 - 1)
              AND m.at <= (SELECT r.at FROM pg_temp.report_snapshot_run r WHERE r.n = $5)
            """, [settings.basis.rawValue, spans.generation, settings.firstMonth.startText,
                 settings.lastMonth.startText, n]).textRows().first?.first ?? nil
    }

    /// Fills the run's `report_movement_affected` (migration 0080): the accounts a night starting from the stored
    /// movements of instant `since` recomputes at its last snapshot `n` (`parameters`: the fill's four).
    static func findAffected(parameters: [any PostgresEncodable], n: Int, since: String, database: PostgresConnection) throws {
        try database.execute("""
            CREATE TEMP TABLE report_movement_affected ON COMMIT DROP AS
            SELECT * FROM report_movement_affected($1, $2, $3, $4, $5::bigint, $6::timestamptz)
            """, parameters + [String(n), since])
        try database.execute("ANALYZE pg_temp.report_movement_affected")
    }

    /// What a run keeps of its movements: every account's rows at its last snapshot (a binary COPY stream of
    /// `report_movement_run`'s columns, which the late session may load too), what they are, and, when it started from
    /// the stored ones, the recomputed accounts and their rows, which replace theirs in the store (the others' are the
    /// stored ones).
    struct Kept: @unchecked Sendable {
        let file: SpillFile
        let key: Key
        let patch: (accounts: String, rows: SpillFile)?
    }

    /// Spills what the run keeps of its movements at its last snapshot `n`, `patching` the stored ones when it started
    /// from them (its `report_movement_affected` filled); nil when there is no snapshot before `n`.
    static func spill(settings: ReportSettings, n: Int, patching: Bool, database: PostgresConnection) throws -> Kept? {
        try StoredMonths.failing("report_movement: keeping the last snapshot's rows") {
            let instants = try database.query("SELECT n, at::text FROM pg_temp.report_snapshot_run WHERE n IN ($1 - 1, $1)", [n]).textRows()
            let at = { (wanted: Int) in instants.first { $0.first.flatMap { $0 } == String(wanted) }?.last ?? nil }
            guard n > 1, let last = at(n), let before = at(n - 1) else { return nil }
            // (each read by two threads from here on at most: the late session's hand-over and the storer; none appends)
            let spill = { (purpose: String, select: String) throws -> SpillFile in
                let file = try SpillFile(purpose: "report movements: \(purpose)")
                _ = try database.copyOutMessages("COPY (\(select)) TO STDOUT (FORMAT binary)") { try file.append($0) }
                try file.flush()
                return file
            }
            let rows = "SELECT * FROM pg_temp.report_movement_run WHERE n = \(n)"
            var patch: (accounts: String, rows: SpillFile)?
            if patching {
                // (the accounts as one array value: the store deletes their rows by a hashed look-up, whatever it knows
                // of the stored rows' statistics)
                let accounts = try database.query("""
                    SELECT COALESCE(array_agg(billing_account_id), '{}')::text FROM pg_temp.report_movement_affected
                    """).textRows().first?.first.flatMap { $0 } ?? "{}"
                patch = (accounts, try spill("recomputed rows", rows + """
                     AND billing_account_id IN (SELECT a.billing_account_id FROM pg_temp.report_movement_affected a)
                    """))
            }
            return Kept(file: try spill("rows", rows),
                        key: Key(basis: settings.basis.rawValue, firstMonth: settings.firstMonth.startText,
                                 lastMonth: settings.lastMonth.startText, n: n, at: last, beforeAt: before),
                        patch: patch)
        }
    }

    /// Spills what a run keeps of the movements it filled (`moved`: their last snapshot, and the stored ones' instant
    /// when it started from them; nothing in a dry run, which stores nothing) and hands it to the store (`handOff`).
    static func keep(_ moved: (last: Int, alone: Bool, since: String?)?, settings: ReportSettings, dryRun: Bool, into handOff: HandOff,
                     database: PostgresConnection) throws -> Kept? {
        let kept = try moved.flatMap { dryRun ? nil : try spill(settings: settings, n: $0.last, patching: $0.since != nil, database: database) }
        handOff.give(kept)
        return kept
    }

    /// Stores `kept` for `basis` (none: the stored movements and their set deleted), in the transaction `db` that stored
    /// the run's spans (after their set: the rows are of its new generation). A run that started from the stored rows
    /// (then still the set it read: a run storing since would have changed the spans' generation, and this one would
    /// store nothing) replaces only the recomputed accounts' rows; any other replaces them all.
    static func save(_ db: PostgresConnection, basis: String, kept: Kept?) throws {
        _ = try db.execute("DELETE FROM report_stored_movement_set WHERE basis = $1", [basis])
        guard let kept, kept.key.basis == basis else {
            _ = try db.execute("DELETE FROM report_stored_movement WHERE basis = $1", [basis])
            return
        }
        // (into the basis's partition, whose basis column defaults to it: the spilled rows are the run table's columns)
        let partition = "report_stored_movement_\(basis) (n, provider, billing_account_id, currency, p, v, movement)"
        if let patch = kept.patch {
            // (one scan of the basis's rows, each looked up in the array's hash: no join for a planner to misjudge on a
            // partition not yet analysed, as after the first load: a nested loop there took 11 s at 200k)
            _ = try db.execute("""
                DELETE FROM report_stored_movement m WHERE m.basis = $1 AND m.billing_account_id = ANY ($2::uuid[])
                """, [basis, patch.accounts])
            try db.copyIn(partition, binaryFrom: patch.rows)
        } else {
            _ = try db.execute("DELETE FROM report_stored_movement WHERE basis = $1", [basis])
            try db.copyIn(partition, binaryFrom: kept.file)
        }
        _ = try db.execute("""
            INSERT INTO report_stored_movement_set (basis, generation, first_month, last_month, n, before_at, at)
            SELECT $1, s.generation, $2::timestamptz, $3::timestamptz, $4, $5::timestamptz, $6::timestamptz
            FROM report_stored_span_set s WHERE s.basis = $1
            """, [basis, kept.key.firstMonth, kept.key.lastMonth, kept.key.n, kept.key.beforeAt, kept.key.at])
    }

    /// What the storer stores beside the spans: `after` (what the run stores beside them), then the movements handed
    /// over (`save`, waiting for them).
    static func keeping(_ handOff: HandOff, basis: String, after: @escaping @Sendable (PostgresConnection) throws -> Void)
        -> @Sendable (PostgresConnection) throws -> Void {
        { db in
            try after(db)
            try save(db, basis: basis, kept: handOff.take())
        }
    }

    /// The movement rows a run hands to its storer: given once by the job's session (`give`, none when it has none to
    /// keep or failed), taken by the storer's thread inside its transaction (`take`, which waits for them).
    final class HandOff: @unchecked Sendable {
        private let condition = NSCondition()
        private var given = false
        private var handed: Kept?

        /// Hands `movements` over; later calls change nothing (the first one counts, so a failure after it keeps it).
        func give(_ movements: Kept?) {
            condition.lock()
            defer { condition.unlock() }
            guard !given else { return }
            handed = movements
            given = true
            condition.broadcast()
        }

        /// Waits until the rows are given and returns them.
        func take() -> Kept? {
            condition.lock()
            defer { condition.unlock() }
            while !given { condition.wait() }
            return handed
        }
    }
}

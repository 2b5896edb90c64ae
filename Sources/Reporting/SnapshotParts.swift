import Foundation
import JobKit
import Postgres

/// The per-snapshot parts of the month digest (migration 0052; Reports/README.md, "Stored snapshot parts"): per
/// snapshot, the count and hash sum of the contribution rows and of the subscriber-state rows placed there. A run
/// collects them in its temporary `report_snapshot_part_run` (n, at and the four numbers), which the month digest
/// reads (`json`) and `StoredSpans.save` stores for the complete snapshots, with the spans they were placed from. A
/// night that reads the stored spans takes a complete snapshot's parts from the store, corrected by the spans it
/// recomputed that differ from the stored ones (`report_span_difference`: the old spans' rows taken away, the new ones' added), instead of placing every span
/// there; only the snapshots after the stored ones are placed and hashed.
enum SnapshotParts {
    /// The columns of the run's `report_snapshot_part_run`.
    static let columns = "n bigint, at timestamptz, contribution_count bigint, contribution_hash_sum numeric, state_count bigint, "
        + "state_hash_sum numeric"

    /// Creates the run's `report_snapshot_part_run` with the corrected stored parts of the snapshots before the first
    /// one the run must place, and returns that one: the first snapshot (from n = 1) without a stored part of this
    /// basis written with the store's current spans (their `generation`) at the same instant; 1 when every span was
    /// recomputed (the parts are then placed afresh).
    static func prepare(settings: ReportSettings, spans: StoredSpans, database: PostgresConnection) throws -> Int {
        try database.execute("CREATE TEMP TABLE report_snapshot_part_run (\(columns))")
        guard spans.touched != nil else { return 1 }
        let row = try database.query("""
            SELECT COALESCE((SELECT min(s.n) FROM pg_temp.report_snapshot_run s
                             WHERE NOT EXISTS (SELECT 1 FROM report_stored_snapshot_part p
                                               JOIN report_stored_span_set t ON t.basis = p.basis AND t.generation = p.generation
                                               WHERE p.basis = $1 AND p.n = s.n AND p.at = s.at)),
                            (SELECT max(s.n) + 1 FROM pg_temp.report_snapshot_run s), 1)
            """, [settings.basis.rawValue]).textRows().first
        let firstUnstored = Int(row?.first.flatMap { $0 } ?? "") ?? 1
        guard firstUnstored > 1 else { return 1 }
        let all = ReportQuery.parameters(settings)
        try database.execute("""
            INSERT INTO pg_temp.report_snapshot_part_run
            SELECT p.n, p.at, p.contribution_count + COALESCE(c.contribution_count, 0),
                   p.contribution_hash_sum + COALESCE(c.contribution_hash_sum, 0),
                   p.state_count + COALESCE(c.state_count, 0), p.state_hash_sum + COALESCE(c.state_hash_sum, 0)
            FROM report_stored_snapshot_part p
            LEFT JOIN report_snapshot_part_difference($1, $2, $3, $4, $5) c ON c.n = p.n
            WHERE p.basis = $4 AND p.n < $5
            """, [all[0], all[1], all[2], all[4], firstUnstored])
        return firstUnstored
    }

    /// Adds the parts of the snapshots from `firstUnstored` on, from the run's placed rows (zeros for a snapshot where
    /// none is placed, so a complete one is stored as known to be empty). The as-of instant's snapshot gets zeros
    /// without its rows being hashed (migration 0073): its parts reach only the as-of month's digest, which no run
    /// reads (the open month is always computed, never stored), and `save` never stores them.
    static func addPlaced(from firstUnstored: Int, settings: ReportSettings, database: PostgresConnection) throws {
        let all = ReportQuery.parameters(settings)
        try database.execute("""
            INSERT INTO pg_temp.report_snapshot_part_run
            SELECT s.n, s.at, COALESCE(p.contribution_count, 0), COALESCE(p.contribution_hash_sum, 0),
                   COALESCE(p.state_count, 0), COALESCE(p.state_hash_sum, 0)
            FROM pg_temp.report_snapshot_run s
            LEFT JOIN report_snapshot_part($1, $2, $3, $4, $5,
                                           (SELECT min(a.n) FROM pg_temp.report_snapshot_run a WHERE a.at >= $1)) p ON p.n = s.n
            WHERE s.n >= $5
            """, [all[0], all[1], all[2], all[4], firstUnstored])
    }

    /// The run's parts as the month digest takes them (`report_month_inputs`' sixth argument): a jsonb array's text.
    static func json(_ database: PostgresConnection) throws -> String {
        try database.query("SELECT COALESCE(jsonb_agg(p ORDER BY p.n), '[]')::text FROM pg_temp.report_snapshot_part_run p")
            .textRows().first?.first.flatMap { $0 } ?? "[]"
    }

    /// Stores the run's parts of its complete snapshots (before the as-of instant) for `basis` under `generation`, in
    /// `db`'s open transaction (the one storing the spans they were placed from), replacing the basis's; with `keep`
    /// false only deletes the basis's (the store's spans are no longer the ones they were placed from).
    static func save(_ db: PostgresConnection, basis: String, generation: Int64, asOf: String, keep: Bool) throws {
        _ = try db.execute("DELETE FROM report_stored_snapshot_part WHERE basis = $1", [basis])
        guard keep else { return }
        _ = try db.execute("""
            INSERT INTO report_stored_snapshot_part (basis, n, at, generation, contribution_count, contribution_hash_sum,
                                                     state_count, state_hash_sum)
            SELECT $1, p.n, p.at, $2, p.contribution_count, p.contribution_hash_sum, p.state_count, p.state_hash_sum
            FROM pg_temp.report_snapshot_part_run p
            WHERE p.at < $3::timestamptz
            """, [basis, generation, asOf])
    }
}

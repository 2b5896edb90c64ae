import Foundation
import JobKit
import Postgres

/// `refunds`' paid-charge counts with their row part stored per month (migration 0056; Reports/README.md, "Stored paid
/// counts"). The second session fills the run's temporary `report_paid_count_run` before the report reads it — the
/// store's months before the first month the changes since it reach and the months from there computed, or every
/// month computed when there is no store to read — and hands the rows to the job, which stores them beside the spans.
enum PaidCounts {
    /// The function a report names to read the run's paid counts: a report that does reads only the history still.
    static let relation = "report_run_paid_count"

    /// The digest of `report_paid_count`'s SQL as installed: stored rows of another function are not read.
    private static let definition = StoreChanges.definition(of: "report_paid_count")

    /// Creates the run's temporary table on `connection` (the second session), before its read-only transaction begins.
    static func prepare(_ connection: PostgresConnection) throws {
        try connection.execute("CREATE TEMP TABLE report_paid_count_run (LIKE public.report_paid_count_run)")
    }

    /// Fills the run's paid counts on `connection` (the second session, on the run's snapshot, after `prepare`) and
    /// returns the row part as one jsonb array (text), for the store: from the store for the months before the first
    /// month the `changes` reach, when there are changes to read and the basis's store is of this function; every month
    /// computed otherwise. The run's table then holds the excluded part too, negated (`report_run_paid_count` reads it
    /// as it is).
    static func fill(_ connection: PostgresConnection, settings: ReportSettings, changes: StoreChanges?) throws -> String {
        let all = ReportQuery.parameters(settings)
        let (asOf, basis) = (all[0], all[4])
        // The months before `from` from the store, the others computed; with no store to read, `from` is NULL: every
        // month computed and none read.
        let from = try changes?.readable(from: "report_stored_paid_count", basis: basis, definition: definition, on: connection)?.from
        try connection.execute("""
            INSERT INTO pg_temp.report_paid_count_run (month, provider, currency, paid_count)
            SELECT s.month, s.provider, s.currency, s.paid_count FROM report_stored_paid_count s
            WHERE $3::date IS NOT NULL AND s.basis = $2 AND s.month < $3::date
            UNION ALL
            SELECT c.month, c.provider, c.currency, c.paid_count FROM report_paid_count($1, $2, $3::date) c
            """, [asOf, basis, from])
        try connection.execute("""
            INSERT INTO pg_temp.report_run_filled (relation, as_of, basis) VALUES ('paid_count', $1, $2)
            """, [asOf, basis])
        let rows = try connection.query("SELECT COALESCE(jsonb_agg(r), '[]')::text FROM pg_temp.report_paid_count_run r")
            .textRows().first?.first.flatMap { $0 } ?? "[]"
        // Then the excluded part, negated, once for the run's readers (migration 0070): not stored, it reads the whole
        // history of the subscriptions that do not count.
        try connection.execute("""
            INSERT INTO pg_temp.report_paid_count_run (month, provider, currency, paid_count)
            SELECT e.month, e.provider, e.currency, -e.paid_count FROM report_paid_count_excluded($1, $2) e
            """, [asOf, basis])
        return rows
    }

    /// Replaces the basis's stored row part with `rows` (`fill`'s jsonb array), in `db`'s transaction that stores the
    /// span set with this run's as-of instant and snapshot; with `rows` nil (the set's are unknown, or the run filled
    /// no paid counts) only deletes the basis's.
    static func save(_ db: PostgresConnection, basis: String, rows: String?) throws {
        _ = try db.execute("DELETE FROM report_stored_paid_count WHERE basis = $1", [basis])
        guard let rows else { return }
        _ = try db.execute("""
            INSERT INTO report_stored_paid_count (basis, month, provider, currency, paid_count, definition)
            SELECT $1, x.month, x.provider, x.currency, x.paid_count, (\(definition))
            FROM jsonb_to_recordset($2::jsonb) AS x(month date, provider text, currency text, paid_count bigint)
            """, [basis, rows])
    }
}

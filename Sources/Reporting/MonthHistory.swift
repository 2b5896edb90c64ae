import Foundation
import JobKit
import Postgres

/// The history part of the month digest (`report_month_history`; Reports/README.md, "Changed since the last store"):
/// computed whole by a run that recomputes everything or finds no store to start from, and otherwise only from the
/// month of the earliest change since the store on (migration 0054), the months before read from the store, which
/// the run that stores the spans writes beside them.
enum MonthHistory {
    /// The digest of the month history functions' SQL as installed: stored rows of other functions are not read.
    private static let definition = StoreChanges.definition(of: "report_month_history")

    /// `report_month_history`'s rows of the run's as-of instant and basis as one jsonb array (text), computed on
    /// `connection` (the second session, on the run's snapshot). When there are changes to read (`StoreChanges`) and
    /// the store is of these functions: the row part from the store for the months before the earlier of the first
    /// month the `changes` reach and the store's as-of month (the store holds complete months only: `save`), computed
    /// from there up to the run's as-of month, and 0 for the as-of month itself, whose row part reaches only its own
    /// digest, which no run reads (the open month is always computed, never stored: migration 0072). Every month
    /// computed otherwise.
    static func rows(_ connection: PostgresConnection, settings: ReportSettings, changes: StoreChanges?) throws -> String {
        let all = ReportQuery.parameters(settings)
        let (asOf, basis) = (all[0], all[4])
        if let changes = try changes?.readable(from: "report_stored_month_history", basis: basis, definition: definition,
                                               on: connection) {
            // The first month computed: the changes' first month or the store's as-of month, whichever is earlier (the
            // span set and this store are written in one transaction: `StoredSpansSave`).
            let from = try connection.query("""
                SELECT LEAST($2::date, (SELECT (date_trunc('month', s.as_of AT TIME ZONE 'UTC'))::date
                                        FROM report_stored_span_set s WHERE s.basis = $1))::text
                """, [basis, changes.from]).textRows().first?.first.flatMap { $0 } ?? changes.from
            return try connection.query("""
                SELECT COALESCE(jsonb_agg(h), '[]')::text FROM (
                    SELECT COALESCE(c.month, s.month) AS month,
                           CASE WHEN COALESCE(c.month, s.month) < $3::date THEN COALESCE(s.row_count, 0) ELSE c.row_count END AS row_count,
                           CASE WHEN COALESCE(c.month, s.month) < $3::date THEN COALESCE(s.hash_sum, 0) ELSE c.hash_sum END AS hash_sum,
                           COALESCE(c.excluded_count, 0) AS excluded_count, COALESCE(c.excluded_hash_sum, 0) AS excluded_hash_sum
                    FROM report_month_history($1, $2, $3::date, $4::date) c
                    FULL JOIN (SELECT h.month, h.row_count, h.hash_sum FROM report_stored_month_history h
                               WHERE h.basis = $2 AND h.month < $3::date) s ON s.month = c.month) h
                """, [asOf, basis, from, settings.asOfMonth.firstDayText]).textRows().first?.first.flatMap { $0 } ?? "[]"
        }
        return try connection.query("SELECT COALESCE(jsonb_agg(h), '[]')::text FROM report_month_history($1, $2) h",
                                    [asOf, basis]).textRows().first?.first.flatMap { $0 } ?? "[]"
    }

    /// Replaces the basis's stored row part with that of `rows` (`rows`' jsonb array) of the complete months (before
    /// `asOfMonth`, the first day of the storing run's as-of month), in `db`'s transaction that stores the span set
    /// with this run's as-of instant and snapshot; with `rows` nil (the set's are unknown, or the run computed no
    /// month history) only deletes the basis's.
    static func save(_ db: PostgresConnection, basis: String, before asOfMonth: String, rows: String?) throws {
        _ = try db.execute("DELETE FROM report_stored_month_history WHERE basis = $1", [basis])
        guard let rows else { return }
        _ = try db.execute("""
            INSERT INTO report_stored_month_history (basis, month, row_count, hash_sum, definition)
            SELECT $1, x.month, x.row_count, x.hash_sum, (\(definition))
            FROM jsonb_to_recordset($2::jsonb) AS x(month date, row_count bigint, hash_sum numeric)
            WHERE x.month < $3::date
            """, [basis, rows, asOfMonth])
    }
}

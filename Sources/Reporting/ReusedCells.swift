import Foundation
import JobKit
import Postgres

/// The cells a report stored as cells reuses (`MonthCells`), handed to its query in the session's
/// `pg_temp.report_reused_cell_run` (migration 0060): one row per reused row, its month and its cells as a jsonb object
/// by column name. `cohorts.sql` adds a night's month to the cells of the month before it instead of reading the whole
/// history (Reports/README.md, "Cohorts in a night"); a query that does not read them computes as before.
enum ReusedCells {
    /// Creates the session's table; a run's sessions do so with their other temporary tables, before their
    /// transaction turns read-only (which may write temporary tables but not create them).
    static func create(_ database: PostgresConnection, onCommitDrop: Bool) throws {
        try database.execute("CREATE TEMP TABLE report_reused_cell_run (LIKE public.report_reused_cell_run)"
            + (onCommitDrop ? " ON COMMIT DROP" : ""))
    }

    /// Hands `table`'s rows (the reused cells, `month` naming their month column) to the session's queries; false, and
    /// nothing handed, when there are none or the session has no table (the report then computes every cell).
    static func handOver(_ table: ReportTable, month: String, database: PostgresConnection) throws -> Bool {
        guard !table.rows.isEmpty, let monthIndex = table.index(of: month) else { return false }
        let present = try database.query("SELECT to_regclass('pg_temp.report_reused_cell_run') IS NOT NULL").textRows()
        guard present.first?.first == "t" else { return false }
        try StoredMonths.failing("reused cells") {
            try database.execute("DELETE FROM pg_temp.report_reused_cell_run")
            // One parameter for every cell, row after row: unnested once, each row's cells gathered by column name.
            _ = try database.execute("""
                INSERT INTO pg_temp.report_reused_cell_run (month, cells)
                SELECT max(u.v) FILTER (WHERE (u.i - 1) % c.w = $3 - 1), jsonb_object_agg(($1::text[])[(u.i - 1) % c.w + 1], u.v)
                FROM unnest($2::text[]) WITH ORDINALITY AS u(v, i), (SELECT cardinality($1::text[]) AS w) c
                GROUP BY (u.i - 1) / c.w
                """, [PostgresTextArray(table.columns), PostgresTextArray(table.rows.flatMap { $0 }), Int64(monthIndex + 1)])
            try database.execute("ANALYZE pg_temp.report_reused_cell_run")
        }
        return true
    }

    /// Empties the session's table after the query that read it.
    static func clear(_ database: PostgresConnection) throws {
        _ = try StoredMonths.failing("reused cells") { try database.execute("DELETE FROM pg_temp.report_reused_cell_run") }
    }
}

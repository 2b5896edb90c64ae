import JobKit
import Postgres

/// The shared part of the MRR reports, computed once per run: the schema's functions `report_snapshot` and
/// `report_contribution` (SQL/migrations/*_report_contribution.sql) are each filled into a temporary table inside the
/// run's snapshot, and the report files run with their calls of those functions replaced by the tables, which hold
/// exactly the rows the calls return. A file run by hand calls the functions itself.
public enum SharedReportTables {
    /// Each call as the report files write it (the report contract's $1, $2, $3 and $5), its function, and the
    /// temporary table that replaces it.
    public static let replacements: [(call: String, function: String, table: String)] = [
        ("report_snapshot($1, $2, $3, $5)", "report_snapshot", "report_snapshot_run"),
        ("report_contribution($1, $2, $3, $5)", "report_contribution", "report_contribution_run"),
    ]

    /// Creates and fills the tables in the open transaction, before it turns read-only; they are dropped at its end.
    static func fill(settings: ReportSettings, database: PostgresConnection) throws {
        let all = ReportQuery.parameters(settings)
        let parameters = [all[0], all[1], all[2], all[4]]
        for replacement in replacements {
            do {
                try database.execute("""
                    CREATE TEMP TABLE \(replacement.table) ON COMMIT DROP AS
                    SELECT * FROM \(replacement.function)(NULL, NULL, NULL, 'corrected') WITH NO DATA
                    """)
                try database.execute("INSERT INTO pg_temp.\(replacement.table) SELECT * FROM \(replacement.function)($1, $2, $3, $4)",
                                     parameters)
                try database.execute("ANALYZE pg_temp.\(replacement.table)")
            } catch let error as PostgresError {
                throw JobError.failed("report \(replacement.function): \(error.message)" + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
            }
        }
    }

    /// `sql` with every call of a shared function replaced by its filled table.
    public static func rewrite(_ sql: String) -> String {
        replacements.reduce(sql) { text, replacement in
            text.replacingOccurrences(of: replacement.call, with: "pg_temp." + replacement.table)
        }
    }
}

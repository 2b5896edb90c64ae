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
    /// the subscriber states place them on the snapshots.
    static let relations = ["snapshot", "span", "contribution", "movement", "subscriber_state"]

    /// Creates and fills the tables in the open transaction, before it turns read-only; they are dropped at its end,
    /// but for the spans, which `spans` fills (from the store and the recomputed subscriptions) and drops after storing.
    static func fill(settings: ReportSettings, database: PostgresConnection, spans: StoredSpans) throws {
        let all = ReportQuery.parameters(settings)
        try fill(parameters: [all[0], all[1], all[2], all[4]], database: database, spans: spans.fill)
    }

    /// Fills the run's tables for `parameters` (as-of, first month, last month, basis: the report contract's $1, $2,
    /// $3 and $5) in the open transaction; after it, the `report_run_*` functions called with the same parameters read
    /// the tables. `spans`, when given, fills the created `report_span_run` itself (and the table outlives the
    /// transaction, for it to store); otherwise every span is computed (`report_span`).
    public static func fill(parameters: [any PostgresEncodable], database: PostgresConnection,
                            spans: ((_ table: String) throws -> Void)? = nil) throws {
        try run("shared tables", database) {
            try database.execute("CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled) ON COMMIT DROP")
        }
        for relation in relations {
            let table = "report_\(relation)_run", function = "report_\(relation)"
            try run(function, database) {
                if relation == "span", let spans {
                    try database.execute("CREATE TEMP TABLE \(table) (LIKE public.\(table))")
                    try spans("pg_temp." + table)
                } else {
                    try database.execute("CREATE TEMP TABLE \(table) (LIKE public.\(table)) ON COMMIT DROP")
                    // report_run_span computes the spans while the table is not yet recorded as filled.
                    let source = relation == "span" ? "report_run_span" : function
                    try database.execute("INSERT INTO pg_temp.\(table) SELECT * FROM \(source)($1, $2, $3, $4)", parameters)
                }
                try database.execute("ANALYZE pg_temp.\(table)")
                // From here on the report_run_* function of this relation reads the table.
                try database.execute("""
                    INSERT INTO pg_temp.report_run_filled (relation, as_of, first_month, last_month, basis)
                    VALUES ('\(relation)', $1, $2, $3, $4)
                    """, parameters)
            }
        }
    }

    /// Runs `body`, naming `what` in a database error.
    private static func run(_ what: String, _ database: PostgresConnection, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as PostgresError {
            throw JobError.failed("report \(what): \(error.message)" + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
        }
    }
}

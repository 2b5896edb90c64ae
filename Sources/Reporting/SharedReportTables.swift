import Foundation
import JobKit
import Postgres

/// The shared part of the MRR reports, computed once per run: the schema's functions `report_snapshot` and
/// `report_contribution` (SQL/migrations/*_report_contribution.sql) are each filled into a temporary table inside the
/// run's snapshot, and the report files run with their calls of those functions replaced by the tables, which hold
/// exactly the rows the calls return. The marked `BEGIN movement` block that `mrr_movements` and `mrr_bridge` share
/// is filled once too, from those tables, and replaced in every file that holds the same block text. A file run by
/// hand calls the functions and computes its block itself.
public struct SharedReportTables: Sendable {
    /// Each call as the report files write it (the report contract's $1, $2, $3 and $5), its function, and the
    /// temporary table that replaces it.
    public static let replacements: [(call: String, function: String, table: String)] = [
        ("report_snapshot($1, $2, $3, $5)", "report_snapshot", "report_snapshot_run"),
        ("report_contribution($1, $2, $3, $5)", "report_contribution", "report_contribution_run"),
    ]

    /// The temporary table that holds the rows of the shared movement block's `movement` relation.
    public static let movementTable = "report_movement_run"

    /// The movement block's text (its marker lines included) as the files hold it, when a file of the run has one.
    public let movementBlock: String?

    /// Creates and fills the tables in the open transaction, before it turns read-only; they are dropped at its end.
    /// `files` are the texts of the run's report files; the first movement block among them is the one filled.
    static func fill(settings: ReportSettings, database: PostgresConnection, files: [String]) throws -> SharedReportTables {
        let all = ReportQuery.parameters(settings)
        let parameters = [all[0], all[1], all[2], all[4]]
        for replacement in replacements {
            try run(replacement.function, database) {
                try database.execute("""
                    CREATE TEMP TABLE \(replacement.table) ON COMMIT DROP AS
                    SELECT * FROM \(replacement.function)(NULL, NULL, NULL, 'corrected') WITH NO DATA
                    """)
                try database.execute("INSERT INTO pg_temp.\(replacement.table) SELECT * FROM \(replacement.function)($1, $2, $3, $4)",
                                     parameters)
                try database.execute("ANALYZE pg_temp.\(replacement.table)")
            }
        }
        let block = files.lazy.compactMap(Self.movementBlock(in:)).first
        if let block {
            // The block is a list of CTEs ending in `movement AS (…),`; it reads `snapshot` and `contribution` only.
            let body = block.trimmingTrailingComma()
            try run("movement block", database) {
                try database.execute("""
                    CREATE TEMP TABLE \(movementTable) ON COMMIT DROP AS
                    WITH snapshot AS (SELECT * FROM pg_temp.report_snapshot_run),
                    contribution AS (SELECT * FROM pg_temp.report_contribution_run),
                    \(body)
                    SELECT * FROM movement
                    """)
                try database.execute("ANALYZE pg_temp.\(movementTable)")
            }
        }
        return SharedReportTables(movementBlock: block)
    }

    /// `sql` with every call of a shared function replaced by its filled table, and the movement block, where it is
    /// the filled one to the letter, by a read of its table.
    public func rewrite(_ sql: String) -> String {
        var text = Self.replacements.reduce(sql) { text, replacement in
            text.replacingOccurrences(of: replacement.call, with: "pg_temp." + replacement.table)
        }
        if let movementBlock {
            text = text.replacingOccurrences(of: movementBlock, with: """
                -- movement: filled once for the run by build-reports (the shared movement block)
                movement AS (
                    SELECT * FROM pg_temp.\(Self.movementTable)
                ),

                """)
        }
        return text
    }

    /// The text from the line `-- BEGIN movement` through the line `-- END movement` (with its newline), if `sql` has both.
    public static func movementBlock(in sql: String) -> String? {
        guard let start = sql.range(of: "-- BEGIN movement"), let endMarker = sql.range(of: "-- END movement", range: start.upperBound..<sql.endIndex)
        else { return nil }
        let lineStart = sql[..<start.lowerBound].lastIndex(of: "\n").map { sql.index(after: $0) } ?? sql.startIndex
        guard lineStart == start.lowerBound else { return nil }
        let lineEnd = sql[endMarker.upperBound...].firstIndex(of: "\n").map { sql.index(after: $0) } ?? sql.endIndex
        return String(sql[lineStart..<lineEnd])
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

private extension String {
    /// The text without its trailing whitespace, comments and the one comma that ends a CTE list.
    func trimmingTrailingComma() -> String {
        var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty || last.trimmingCharacters(in: .whitespaces).hasPrefix("--") {
            lines.removeLast()
        }
        var text = lines.joined(separator: "\n")
        if text.hasSuffix(",") { text.removeLast() }
        return text
    }
}

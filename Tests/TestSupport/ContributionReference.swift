import Foundation
import Postgres

/// The report contribution as migration 0017 defined it (and the snapshots as 0013 did), installed under other names
/// next to the current definitions, so a test can prove that a faster rewrite (0022) returns the same rows.
/// The old bodies are read from the applied migration files themselves (an applied migration is never edited), with
/// only the function names rewritten: `report_contribution_0017` and `report_snapshot_0013`.
public enum ContributionReference {
    /// The repository's SQL/migrations folder.
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SQL/migrations")

    /// Why the old definitions could not be read from their files.
    public struct Missing: Error, CustomStringConvertible {
        /// What was not found.
        public let description: String
    }

    /// The `CREATE … FUNCTION name(` statement of `file`, up to its closing `$fn$;`.
    public static func statement(_ file: String, opening: String) throws -> String {
        let text = try String(contentsOf: migrations.appendingPathComponent(file), encoding: .utf8)
        guard let start = text.range(of: opening),
              let end = text.range(of: "\n$fn$;", range: start.upperBound..<text.endIndex) else {
            throw Missing(description: "\(file): no \(opening) … $fn$;")
        }
        return String(text[start.lowerBound..<end.upperBound])
    }

    /// Creates (or replaces) `report_snapshot_0013` and `report_contribution_0017` in `database`: the old bodies, the
    /// old contribution reading the old snapshots.
    public static func install(_ database: PostgresConnection) throws {
        let snapshot = try statement("0013_report_contribution.sql", opening: "CREATE FUNCTION report_snapshot(")
            .replacingOccurrences(of: "CREATE FUNCTION report_snapshot(", with: "CREATE OR REPLACE FUNCTION report_snapshot_0013(")
        let contribution = try statement("0017_report_contribution.sql", opening: "CREATE OR REPLACE FUNCTION report_contribution(")
            .replacingOccurrences(of: "FUNCTION report_contribution(", with: "FUNCTION report_contribution_0017(")
            .replacingOccurrences(of: "report_snapshot(", with: "report_snapshot_0013(")
        _ = try database.execute(snapshot)
        _ = try database.execute(contribution)
    }

    /// Rows in `a`'s result and not in `b`'s, plus rows in `b`'s and not in `a`'s, counted with their multiplicity
    /// (EXCEPT ALL both ways), for the four parameters of the shared relations (as-of, first month, last month, basis).
    public static func difference(_ database: PostgresConnection, _ a: String, _ b: String,
                                  _ parameters: [any PostgresEncodable]) throws -> Int {
        let sql = """
            SELECT count(*)::int AS n FROM (
              (SELECT * FROM \(a)($1, $2, $3, $4) EXCEPT ALL SELECT * FROM \(b)($1, $2, $3, $4))
              UNION ALL
              (SELECT * FROM \(b)($1, $2, $3, $4) EXCEPT ALL SELECT * FROM \(a)($1, $2, $3, $4))) d
            """
        return try database.query(sql, parameters).first?.decode(Int.self, "n") ?? -1
    }

    /// How many rows `function` returns for the four parameters.
    public static func count(_ database: PostgresConnection, _ function: String, _ parameters: [any PostgresEncodable]) throws -> Int {
        try database.query("SELECT count(*)::int AS n FROM \(function)($1, $2, $3, $4)", parameters).first?.decode(Int.self, "n") ?? -1
    }

    /// The old and the current definitions' differences for the parameters: (snapshots, contributions), each 0 when
    /// the two agree row for row.
    public static func differences(_ database: PostgresConnection, _ parameters: [any PostgresEncodable]) throws -> (snapshot: Int, contribution: Int) {
        try install(database)
        return (try difference(database, "report_snapshot_0013", "report_snapshot", parameters),
                try difference(database, "report_contribution_0017", "report_contribution", parameters))
    }
}

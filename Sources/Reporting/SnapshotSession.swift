import Foundation
import JobKit
import Postgres

/// A session of its own that reads the run's snapshot: the job's session exports it (`export`), another connection
/// (`connect`) imports it at the start of a REPEATABLE READ READ ONLY transaction with the run's planner settings
/// (`begin`), so every report of a run reads one snapshot whichever session computes it (`HistoryReports`,
/// `LateReports`).
enum SnapshotSession {
    /// Exports the snapshot of `database`'s open REPEATABLE READ transaction; `what` names the session in an error.
    static func export(_ database: PostgresConnection, for what: String) throws -> String {
        let snapshot = try StoredMonths.failing(what) {
            try database.query("SELECT pg_export_snapshot()").textRows().first?.first.flatMap { $0 } ?? ""
        }
        // An identifier such as 00000003-0000001B-1: SET TRANSACTION SNAPSHOT takes a literal, not a parameter.
        guard !snapshot.isEmpty, snapshot.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw JobError.failed("report \(what): the server exported the snapshot '\(snapshot)', not an identifier")
        }
        return snapshot
    }

    /// Opens the session's connection; `what` names the session in an error.
    static func connect(_ connect: () throws -> PostgresConnection, for what: String) throws -> PostgresConnection {
        do {
            return try connect()
        } catch let error as PostgresError {
            throw JobError.failed("report \(what): another connection failed: \(error.message)")
        }
    }

    /// Begins `connection`'s read-only transaction on `snapshot` with the run's planner settings.
    static func begin(_ connection: PostgresConnection, snapshot: String) throws {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try connection.execute("SET TRANSACTION SNAPSHOT '\(snapshot)'")
        try BuildReports.configureSnapshot(connection)
    }
}

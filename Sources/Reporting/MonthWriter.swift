import Foundation
import JobKit
import Postgres

/// A connection of its own, on a thread of its own, that records a run's computed months (the statements
/// `MonthRecorder` sends: the rows into its temporary tables of new stored months) while the job's session goes on with
/// the next report, and stores them after the run (`StoredMonths.save`) while the job's session stores its spans
/// (Reports/README.md, "Two sessions, one snapshot"). The rows are values the job's session computed in the run's
/// snapshot; this connection reads nothing, so it needs no snapshot of its own. At most `depth` statements wait, so the
/// rows in flight stay bounded.
final class MonthWriter: @unchecked Sendable {
    /// One statement for the connection, run in order; its parameters are made on the connection's thread (the rows'
    /// JSON is encoded there, not on the job's).
    private struct Statement {
        let sql: String
        let parameters: @Sendable () -> [any PostgresEncodable]
    }

    /// Statements that may wait before `send` blocks.
    private static let depth = 4

    private let connection: PostgresConnection
    private let condition = NSCondition()
    private var queue: [Statement] = []
    /// nil until the run's end; then whether to store what was recorded (false: the run failed, or a dry run).
    private var keep: Bool?
    private var finished = false
    private var failure: (any Error)?
    /// The seconds the store took, once done.
    private(set) var storingSeconds: TimeInterval = 0

    private init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Opens the connection (`connect`), creates its temporary tables of new stored months and starts its thread.
    static func start(connect: () throws -> PostgresConnection) throws -> MonthWriter {
        let connection: PostgresConnection
        do {
            connection = try connect()
        } catch let error as PostgresError {
            throw JobError.failed("report stored months: another connection failed: \(error.message)")
        }
        try StoredMonths.failing("stored months") { try StoredMonths.createNewTables(connection) }
        let writer = MonthWriter(connection: connection)
        let thread = Thread { writer.run() }
        thread.name = "month-writer"
        thread.start()
        return writer
    }

    /// Queues `sql` with `parameters` for the connection, waiting while `depth` statements wait; the connection's
    /// error, if an earlier statement failed.
    func send(_ sql: String, _ parameters: @escaping @Sendable () -> [any PostgresEncodable]) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.depth && failure == nil && !finished { condition.wait() }
        if let failure { throw failure }
        queue.append(Statement(sql: sql, parameters: parameters))
        condition.broadcast()
    }

    /// Ends the recording: the queued statements run, then what they recorded is stored when `keep` (in a transaction
    /// of the connection's own), and the connection closes. `wait` waits for it.
    func end(keep: Bool) {
        condition.lock()
        self.keep = keep
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the connection to end (`end` first) and throws its error, if any.
    func wait() throws {
        condition.lock()
        while !finished { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && keep == nil && failure == nil { condition.wait() }
            if failure != nil || queue.isEmpty {
                let keep = failure == nil && self.keep == true
                condition.unlock()
                if keep {
                    let began = Date()
                    do { try StoredMonths.save(connection, keep: true) } catch { record(error) }
                    storingSeconds = Date().timeIntervalSince(began)
                }
                break
            }
            let statement = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                _ = try connection.execute(statement.sql, statement.parameters())
            } catch {
                record(error)
            }
        }
        connection.close()
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func record(_ error: any Error) {
        condition.lock()
        if failure == nil {
            failure = (error as? PostgresError).map { JobError.failed("report storing months: \($0.message)"
                + ($0.sqlState.map { " (SQLSTATE \($0))" } ?? "")) } ?? error
        }
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

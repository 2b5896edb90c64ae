import Foundation
import Postgres
import Testing

/// `retryingTransaction` re-runs a transaction the server aborted as a deadlock, and counts it.
@Suite struct ConflictRetryTests {
    @Test func aDeadlockIsRetriedAndCountedAndBothTransactionsCommit() throws {
        let setup = try PostgresTestDatabase.connect()
        defer { setup.close() }
        let table = "conflict_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        _ = try setup.execute("CREATE TABLE \(table) (id int PRIMARY KEY, v int NOT NULL)")
        defer { _ = try? setup.execute("DROP TABLE \(table)") }
        _ = try setup.execute("INSERT INTO \(table) VALUES (1, 0), (2, 0)")

        let before = PostgresConflictRetries.total
        let bothHoldTheirFirstRow = DispatchGroup()
        bothHoldTheirFirstRow.enter()
        bothHoldTheirFirstRow.enter()
        let errors = ErrorBox()
        let done = DispatchGroup()
        for (first, second) in [(1, 2), (2, 1)] {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let db = try PostgresTestDatabase.connect()
                    defer { db.close() }
                    var attempts = 0
                    try db.retryingTransaction { tx in
                        attempts += 1
                        _ = try tx.execute("UPDATE \(table) SET v = v + 1 WHERE id = $1", [first])
                        if attempts == 1 {   // only the first attempt waits, so the retry runs straight through
                            bothHoldTheirFirstRow.leave()
                            bothHoldTheirFirstRow.wait()
                        }
                        _ = try tx.execute("UPDATE \(table) SET v = v + 1 WHERE id = $1", [second])
                    }
                } catch {
                    errors.append("\(error)")
                }
            }.start()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "both transactions finished")
        #expect(errors.all.isEmpty, "\(errors.all)")
        let values = try setup.query("SELECT v FROM \(table) ORDER BY id").rows.map { try $0.decode(Int.self, "v") }
        #expect(values == [2, 2], "each transaction committed exactly once")
        #expect(PostgresConflictRetries.total - before >= 1, "the deadlock's loser was retried and counted")
    }

    @Test func otherErrorsAreNotRetried() throws {
        let db = try PostgresTestDatabase.connect()
        defer { db.close() }
        var attempts = 0
        let error = try #require(throws: PostgresError.self) {
            try db.retryingTransaction { tx in
                attempts += 1
                _ = try tx.query("SELECT 1/0")
            }
        }
        #expect(error.sqlState == "22012" && !error.isTransientConflict)
        #expect(attempts == 1)
    }
}

/// Errors collected from threads.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ value: String) { lock.withLock { storage.append(value) } }
    var all: [String] { lock.withLock { storage } }
}

import Foundation
import Postgres
import TestSupport
import Testing

/// Connections, transactions and advisory locks behave as documented.
@Suite struct ConnectionLifecycleTests {
    @Test func unreachableDatabaseGivesLibpqMessage() throws {
        let server = try TestDatabase.serverConfiguration()
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(configuration: server.withDatabase("no_such_database_here"))
        }
        #expect(error.kind == .connection)
        #expect(error.message.contains("no_such_database_here"))
    }

    @Test func closeTwiceIsHarmlessAndUseAfterCloseThrows() throws {
        let db = try PostgresTestDatabase.connect()
        db.close()
        db.close()
        let error = try #require(throws: PostgresError.self) { try db.query("SELECT 1") }
        #expect(error.kind == .usage)
    }

    @Test func transactionCommitsOnReturn() throws {
        let db = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        _ = try db.transaction { try $0.execute("INSERT INTO audit_log (actor, action, entity) VALUES ($1, 'commit', 'tx')", [marker]) }
        #expect(try db.query("SELECT 1 FROM audit_log WHERE actor = $1", [marker]).count == 1)
        #expect(!db.isInTransaction)
    }

    @Test func transactionRollsBackOnAnyThrownError() throws {
        struct Injected: Error {}
        let db = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        #expect(throws: Injected.self) {
            try db.transaction { tx in
                try tx.execute("INSERT INTO audit_log (actor, action, entity) VALUES ($1, 'rollback', 'tx')", [marker])
                throw Injected()
            }
        }
        #expect(try db.query("SELECT 1 FROM audit_log WHERE actor = $1", [marker]).count == 0)
        #expect(!db.isInTransaction)
    }

    @Test func transactionRollsBackOnServerError() throws {
        let db = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        #expect(throws: PostgresError.self) {
            try db.transaction { tx in
                try tx.execute("INSERT INTO audit_log (actor, action, entity) VALUES ($1, 'rollback', 'tx')", [marker])
                try tx.execute("INSERT INTO audit_log (actor, action, entity) VALUES (NULL, 'x', 'tx')")
            }
        }
        #expect(try db.query("SELECT 1 FROM audit_log WHERE actor = $1", [marker]).count == 0)
    }

    @Test func nestedTransactionIsAUsageError() throws {
        let db = try PostgresTestDatabase.connect()
        let error = try #require(throws: PostgresError.self) { try db.transaction { tx in try tx.transaction { _ in } } }
        #expect(error.kind == .usage)
    }

    @Test func advisoryLockIsExclusiveAcrossConnectionsAndNamesItsHolder() throws {
        let first = try PostgresTestDatabase.connect()
        let second = try PostgresTestDatabase.connect()
        let name = "test-lock-\(UUID().uuidString)"
        #expect(try first.tryAdvisoryLock(name))
        #expect(try !second.tryAdvisoryLock(name))
        #expect(try second.advisoryLockHolder(name) == first.backendPID)
        #expect(try first.advisoryUnlock(name))
        #expect(try second.tryAdvisoryLock(name))
        second.close()
        // The server releases a closed session's locks when its backend exits, a moment after PQfinish.
        var reacquired = false
        for _ in 0..<100 where !reacquired {
            reacquired = try first.tryAdvisoryLock(name)
            if !reacquired { usleep(20_000) }
        }
        #expect(reacquired, "closing the connection releases its session lock")
    }
}

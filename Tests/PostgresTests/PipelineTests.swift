import Foundation
import Postgres
import TestSupport
import Testing

/// Pipelines, queued statements and the lazy BEGIN: fewer round trips, the same transactional outcome.
@Suite struct PipelineTests {
    private func count(_ db: PostgresConnection, _ marker: String) throws -> Int {
        try db.query("SELECT count(*)::int AS n FROM audit_log WHERE actor = $1", [marker]).first?.decode(Int.self, "n") ?? -1
    }

    private func insert(_ marker: String, _ action: String = "pipelined") -> PostgresStatement {
        PostgresStatement("INSERT INTO audit_log (actor, action, entity) VALUES ($1, $2, 'pipeline') RETURNING action", [marker, action])
    }

    @Test func resultsComeBackInTheOrderSent() throws {
        let db = try PostgresTestDatabase.connect()
        let results = try db.pipeline([
            PostgresStatement("SELECT $1::int + 1 AS v", [41]),
            PostgresStatement("SELECT 'x'::text AS v WHERE false"),
            PostgresStatement("SELECT generate_series(1, $1::int) AS v", [3]),
        ])
        #expect(results.count == 3)
        #expect(try results[0].first?.decode(Int.self, "v") == 42)
        #expect(results[1].count == 0)
        #expect(try results[2].rows.map { try $0.decode(Int.self, "v") } == [1, 2, 3])
    }

    @Test func aFailureThrowsAndTheStatementsAfterItDoNotRun() throws {
        let db = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        let error = try #require(throws: PostgresError.self) {
            try db.pipeline([insert(marker, "first"), PostgresStatement("SELECT 1 / $1::int AS v", [0]), insert(marker, "third")])
        }
        #expect(error.sqlState == "22012")
        #expect(error.statement?.contains("SELECT 1 /") == true)
        // Outside a transaction the pipeline is one implicit transaction: the first insert is rolled back too.
        #expect(try count(db, marker) == 0)
        // The connection is usable afterwards.
        #expect(try db.query("SELECT 7 AS v").first?.decode(Int.self, "v") == 7)
    }

    @Test func enqueueNeedsAnOpenTransaction() throws {
        let db = try PostgresTestDatabase.connect()
        let error = try #require(throws: PostgresError.self) { try db.enqueue(insert(UUID().uuidString)) }
        #expect(error.kind == .usage)
    }

    @Test func queuedStatementsCommitWithTheTransaction() throws {
        let db = try PostgresTestDatabase.connect()
        let observer = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        try db.transaction { tx in
            try tx.enqueue(insert(marker, "a"))
            try tx.enqueue(insert(marker, "b"))
            // Nothing has reached the server yet: not even BEGIN.
            #expect(try count(observer, marker) == 0)
            #expect(tx.isInTransaction)
        }
        #expect(try count(observer, marker) == 2)
        #expect(!db.isInTransaction)
    }

    @Test func aQueuedStatementThatFailsRollsBackTheWholeTransaction() throws {
        let db = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        let error = try #require(throws: PostgresError.self) {
            try db.transaction { tx in
                try tx.execute("INSERT INTO audit_log (actor, action, entity) VALUES ($1, 'sent', 'pipeline')", [marker])
                try tx.enqueue(insert(marker, "queued"))
                try tx.enqueue(PostgresStatement("INSERT INTO audit_log (actor, action, entity) VALUES ($1, 'bad', NULL)", [marker]))
            }
        }
        #expect(error.sqlState == "23502")   // not_null_violation, thrown by COMMIT's round trip
        #expect(try count(db, marker) == 0)
        #expect(!db.isInTransaction)
    }

    @Test func aQueuedStatementTravelsWithTheNextQueryInOrder() throws {
        let db = try PostgresTestDatabase.connect()
        let marker = UUID().uuidString
        let seen = try db.transaction { tx in
            try tx.enqueue(insert(marker))
            return try count(tx, marker)   // the queued insert ran first, in the same transaction
        }
        #expect(seen == 1)
    }

    @Test func anEmptyTransactionSendsNothingAndAThrowingBodyLeavesNothing() throws {
        let db = try PostgresTestDatabase.connect()
        try db.transaction { _ in }
        #expect(!db.isInTransaction)
        let marker = UUID().uuidString
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction { tx in
                try tx.enqueue(insert(marker))
                throw Stop()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db, marker) == 0)
    }

    @Test func textArraysCarryNullsQuotesAndBackslashes() throws {
        let db = try PostgresTestDatabase.connect()
        let elements: [String?] = ["plain", nil, "quote \" inside", "back\\slash", "", "NULL", "comma, brace }"]
        let row = try #require(try db.query("""
            SELECT array_length($1::text[], 1) AS n, ($1::text[])[2] IS NULL AS second_null, ($1::text[])[6] AS sixth,
                   array_to_json($1::text[])::text AS json
            """, [PostgresTextArray(elements)]).first)
        #expect(try row.decode(Int.self, "n") == elements.count)
        #expect(try row.decode(Bool.self, "second_null"))
        #expect(try row.decode(String.self, "sixth") == "NULL")
        let decoded = try JSONSerialization.jsonObject(with: Data(try row.decode(String.self, "json").utf8)) as? [Any]
        #expect(decoded?.map { $0 as? String } == elements)
    }
}

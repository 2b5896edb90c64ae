import Foundation
import Postgres
import Testing

/// COPY FROM STDIN streams rows; a failure keeps nothing.
@Suite struct CopyInTests {
    private func table(_ db: PostgresConnection) throws -> String {
        let name = "copy_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try db.execute("CREATE TABLE \(name) (n bigint NOT NULL, label text, at timestamptz)")
        return name
    }

    @Test func millionRowsLoad() throws {
        let db = try PostgresTestDatabase.connect()
        let name = try table(db)
        let loaded = try db.copyIn("COPY \(name) (n, label, at) FROM STDIN") { copy in
            for n in 0..<1_000_000 {
                try copy.writeRow([String(n), n % 7 == 0 ? nil : "row \(n)", "2026-01-01 00:00:00+00"])
            }
        }
        #expect(loaded == 1_000_000)
        let row = try #require(try db.query("SELECT count(*) AS c, sum(n) AS s, count(label) AS labelled FROM \(name)").first)
        #expect(try row.decode(Int64.self, "c") == 1_000_000)
        #expect(try row.decode(Int64.self, "s") == 499_999_500_000)
        #expect(try row.decode(Int64.self, "labelled") == 1_000_000 - 142_858)
        try db.execute("DROP TABLE \(name)")
    }

    @Test func escapesSurviveTextFormat() throws {
        let db = try PostgresTestDatabase.connect()
        let name = try table(db)
        let tricky = "tab\there\nnewline\\backslash\r\\N"
        try db.copyIn("COPY \(name) (n, label) FROM STDIN") { try $0.writeRow(["1", tricky]); try $0.writeRow(["2", nil]) }
        let rows = try db.query("SELECT n, label FROM \(name) ORDER BY n").rows
        #expect(try rows[0].decode(String.self, "label") == tricky)
        #expect(try rows[1].decodeIfPresent(String.self, "label") == nil)
    }

    @Test func thrownErrorAbortsAndKeepsNothing() throws {
        struct Stop: Error {}
        let db = try PostgresTestDatabase.connect()
        let name = try table(db)
        #expect(throws: Stop.self) {
            try db.copyIn("COPY \(name) (n) FROM STDIN") { copy in
                for n in 0..<10_000 { try copy.writeRow([String(n)]) }
                throw Stop()
            }
        }
        #expect(try db.query("SELECT count(*) AS c FROM \(name)").first?.decode(Int64.self, "c") == 0)
        #expect(try db.query("SELECT 1 AS one").count == 1, "the connection is usable after an aborted COPY")
    }

    @Test func badDataIsRejectedWithSQLStateAndKeepsNothing() throws {
        let db = try PostgresTestDatabase.connect()
        let name = try table(db)
        let error = try #require(throws: PostgresError.self) {
            try db.copyIn("COPY \(name) (n) FROM STDIN") { copy in
                try copy.writeRow(["1"])
                try copy.writeRow(["not a number"])
            }
        }
        #expect(error.sqlState == "22P02")
        #expect(try db.query("SELECT count(*) AS c FROM \(name)").first?.decode(Int64.self, "c") == 0)
    }
}

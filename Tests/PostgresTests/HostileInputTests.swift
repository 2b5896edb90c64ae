import Foundation
import Postgres
import Testing

/// Hostile strings are stored verbatim or rejected with an error; never interpreted as SQL.
@Suite struct HostileInputTests {
    static let hostile = [
        "'; DROP TABLE audit_log; --", "\"quoted\" 'single' `back`", "semi;colon;;", "back\\slash\\\\ \\x00 \\N",
        "tab\tnew\nline\rcarriage", "$1 $2 ::text", "unicode ✓ 日本語 🚀", String(repeating: "long-", count: 200_000),
        "E'\\047' || chr(39)", "/* comment */ --",
    ]

    @Test(arguments: hostile)
    func storedVerbatim(value: String) throws {
        let db = try PostgresTestDatabase.connect()
        let row = try #require(try db.query(
            "INSERT INTO audit_log (actor, action, entity) VALUES ($1, 'test', 'hostile') RETURNING id, actor", [value]).first)
        #expect(try row.decode(String.self, "actor") == value)
        let id = try row.decode(Int64.self, "id")
        let again = try #require(try db.query("SELECT actor FROM audit_log WHERE id = $1", [id]).first)
        #expect(try again.decode(String.self, "actor") == value)
        #expect(try db.query("SELECT to_regclass('audit_log') IS NOT NULL AS present").first?.decode(Bool.self, "present") == true)
    }

    @Test func invalidUTF8IsRejectedByTheServer() throws {
        let db = try PostgresTestDatabase.connect()
        let error = try #require(throws: PostgresError.self) {
            try db.query("SELECT $1::text AS t", [PostgresParameter.text([0x66, 0xC3, 0x28, 0xFF])])
        }
        #expect(error.sqlState == "22021")
    }

    @Test func nulByteIsRejectedBeforeSending() throws {
        let db = try PostgresTestDatabase.connect()
        let error = try #require(throws: PostgresError.self) { try db.query("SELECT $1::text AS t", ["a\u{0}b"]) }
        #expect(error.kind == .usage)
        #expect(error.description.contains("NUL"))
    }

    @Test func errorsCarrySQLStateAndMessage() throws {
        let db = try PostgresTestDatabase.connect()
        let error = try #require(throws: PostgresError.self) { try db.query("SELECT * FROM no_such_table") }
        #expect(error.sqlState == "42P01")
        #expect(error.message.contains("no_such_table"))
    }
}

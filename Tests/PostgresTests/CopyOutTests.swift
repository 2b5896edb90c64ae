import Foundation
import Postgres
import Testing

/// COPY TO STDOUT streams rows one by one; a failure in the reader or the server leaves the connection usable.
@Suite struct CopyOutTests {
    @Test func rowsStreamInTextFormat() throws {
        let db = try PostgresTestDatabase.connect()
        var count = 0, sum: Int64 = 0
        var tricky = ""
        let rows = try db.copyOut("COPY (SELECT n, CASE WHEN n = 7 THEN E'tab\\there' END FROM generate_series(1, 200000) n) TO STDOUT") {
            let text = String(decoding: $0, as: UTF8.self)
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            count += 1
            sum += Int64(fields[0]) ?? 0
            if fields[0] == "7" { tricky = String(fields[1]) }
            #expect(fields.count == 2 && !text.hasSuffix("\n"))
        }
        #expect(rows == 200_000 && count == 200_000 && sum == 20_000_100_000)
        #expect(tricky == "tab\\there", "text format: the tab is escaped")
    }

    @Test func aThrowingReaderStopsAndTheConnectionStaysUsable() throws {
        struct Stop: Error {}
        let db = try PostgresTestDatabase.connect()
        var seen = 0
        #expect(throws: Stop.self) {
            try db.copyOut("COPY (SELECT n FROM generate_series(1, 50000) n) TO STDOUT") { _ in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10)
        #expect(try db.query("SELECT 1 AS one").count == 1)
    }

    @Test func aServerErrorIsThrown() throws {
        let db = try PostgresTestDatabase.connect()
        let error = try #require(throws: PostgresError.self) {
            try db.copyOut("COPY (SELECT 1 / (n - 500) FROM generate_series(1, 1000) n) TO STDOUT") { _ in }
        }
        #expect(error.sqlState == "22012")
        #expect(try db.query("SELECT 1 AS one").count == 1)
    }
}

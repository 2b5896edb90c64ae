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

    /// Binary COPY read by `BinaryCopyReader`: text arrives as its bytes (tabs, line breaks and backslashes as they
    /// are), NULL as nil, int8 as its value, and a timestamptz's microseconds become the epoch seconds the server's
    /// own `extract(epoch …)::int8` gives — halves rounded away from zero, before 1970 and 2000 too.
    @Test func binaryRowsGiveTheServersValues() throws {
        let db = try PostgresTestDatabase.connect()
        let instants = ["2026-10-31 23:59:59.5+00", "2026-10-31 23:59:59.499999+00", "2026-11-01 00:00:00+00", "1999-12-31 23:59:59.5+00",
                        "1999-12-31 23:59:58.5+00", "1969-12-31 23:59:59.5+00", "1969-12-31 23:59:58.5+00", "1969-12-31 23:59:59.499999+00",
                        "2000-01-01 00:00:00.5+00", "1900-06-30 12:00:00.500001+00", "2038-01-19 03:14:07.5+00"]
        let values = instants.map { "('\($0)'::timestamptz)" }.joined(separator: ", ")
        var reader = BinaryCopyReader()
        var seen: [(Int64, String?, Int64, Int64)] = []
        let messages = try db.copyOutMessages("""
            COPY (SELECT n::int8, CASE WHEN n % 3 = 0 THEN NULL ELSE E'tab\\there\\nand \\\\ back' || n END,
                         t + n * interval '1 microsecond' * 250000 AS t, extract(epoch FROM t + n * interval '1 microsecond' * 250000)::int8
                  FROM (VALUES \(values)) v(t), generate_series(0, 3) n) TO STDOUT (FORMAT binary)
            """) { message in
            guard try reader.read(message) else { return }
            let fields = reader.fields
            #expect(fields.count == 4)
            guard fields.count == 4, let n = fields[0], let t = fields[2], let seconds = fields[3] else { return }
            let text = fields[1].map { String(decoding: UnsafeRawBufferPointer(rebasing: message[$0]), as: UTF8.self) }
            let number = try #require(BinaryCopyReader.int64(message, n))
            let micros = try #require(BinaryCopyReader.int64(message, t))
            let ours = try #require(BinaryCopyReader.epochSeconds(postgresMicroseconds: micros))
            seen.append((number, text, ours, try #require(BinaryCopyReader.int64(message, seconds))))
        }
        #expect(reader.ended && seen.count == instants.count * 4 && messages >= seen.count + 1)
        for (n, text, ours, server) in seen {
            #expect(ours == server, "row \(n): \(ours) against the server's \(server)")
            #expect(text == (n % 3 == 0 ? nil : "tab\there\nand \\ back\(n)"))
        }
    }

    /// A message that is not binary COPY data is refused with what is wrong and where.
    @Test func aMessageWithoutTheSignatureIsRefused() {
        var reader = BinaryCopyReader()
        let error = #expect(throws: PostgresError.self) {
            try Array("1\tx\n".utf8).withUnsafeBytes { _ = try reader.read($0) }
        }
        #expect(error?.message.contains("no PGCOPY signature") == true)
    }
}

import Foundation
import Postgres
import Testing

/// `BinaryCopySorter` hands a binary COPY's tuples on in the order the server's `ORDER BY … COLLATE "C"` gives —
/// text by its bytes (a prefix first, multi-byte UTF-8 as its bytes), integers of every width by value, NULL last —
/// whether the tuples fit one run in memory or are spilled in many and merged.
@Suite struct BinaryCopySorterTests {
    /// 20,000 rows with keys built to collide: order IDs sharing a long prefix (so the abbreviation must look past
    /// it), renewal suffixes, prefixes of one another, multi-byte characters, the empty text and NULL, then three
    /// integer keys (int2, int4, int8; negative ones too) and a unique number last, so the order is total.
    static let rows = """
        SELECT CASE n % 11
                 WHEN 0 THEN NULL
                 WHEN 1 THEN ''
                 WHEN 2 THEN 'GPA.33' || (n % 7)::text
                 WHEN 3 THEN 'GPA.3312-' || lpad((n % 500)::text, 4, '0') || '..' || (n % 13)::text
                 WHEN 4 THEN 'GPA.3312-' || lpad((n % 500)::text, 4, '0')
                 WHEN 5 THEN 'é' || (n % 5)::text
                 WHEN 6 THEN 'Ω' || repeat('z', n % 4)
                 WHEN 7 THEN '🙂' || (n % 3)::text
                 WHEN 8 THEN 'GPA.3312-' || lpad((n % 500)::text, 4, '0') || 'Ωé'
                 ELSE substr(md5(n::text), 1, 1 + n % 9)
               END AS k,
               ((n::int8 * 7919) % 5 - 2)::int2 AS a, ((n::int8 * 104729) % 7 - 3)::int4 AS b, ((n::int8 * 15485863) % 3 - 1) * 4000000000 AS c,
               n::int8 AS n
        FROM generate_series(1, 20000) n
        """

    /// The unique numbers of `rows` in the server's order.
    static func serverOrder(_ db: PostgresConnection) throws -> [Int64] {
        var reader = BinaryCopyReader()
        var order: [Int64] = []
        _ = try db.copyOutMessages("""
            COPY (SELECT n FROM (\(rows)) r ORDER BY k COLLATE "C", a, b, c, n) TO STDOUT (FORMAT binary)
            """) { message in
            guard try reader.read(message), let field = reader.fields[0] else { return }
            order.append(BinaryCopyReader.int64(message, field) ?? -1)
        }
        return order
    }

    /// The unique numbers of `rows` sent unsorted (in reverse, so nothing arrives in order) and sorted here.
    static func sorted(_ db: PostgresConnection, runBytes: Int) throws -> [Int64] {
        let sorter = BinaryCopySorter(keys: [.bytes(0), .integer(1), .integer(2), .integer(3), .integer(4)], runBytes: runBytes)
        var reader = BinaryCopyReader()
        _ = try db.copyOutMessages("COPY (SELECT * FROM (\(rows)) r ORDER BY n DESC) TO STDOUT (FORMAT binary)") { message in
            guard try reader.read(message) else { return }
            try sorter.add(message, fields: reader.fields)
        }
        var tuples = BinaryCopyReader.afterHeader()
        var order: [Int64] = []
        try sorter.finish { tuple in
            guard try tuples.read(tuple), tuples.fields.count == 5, let field = tuples.fields[4] else { return }
            order.append(BinaryCopyReader.int64(tuple, field) ?? -1)
        }
        return order
    }

    @Test(arguments: [1 << 30, 64 << 10, 700])
    func tuplesComeInTheServersCOrder(runBytes: Int) throws {
        let db = try PostgresTestDatabase.connect()
        let expected = try Self.serverOrder(db)
        #expect(expected.count == 20_000)
        let ours = try Self.sorted(db, runBytes: runBytes)
        #expect(ours == expected, "run size \(runBytes): first difference at \(Array(zip(ours, expected)).firstIndex { $0.0 != $0.1 } ?? -1)")
    }

    /// The server sends the header with the first tuple: the sorter keeps the tuple alone, and hands out nothing
    /// when nothing was added.
    @Test func theHeaderStaysOutAndAnEmptySortHandsOutNothing() throws {
        let header: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        func tuple(_ text: String, _ number: Int32) -> [UInt8] {
            let bytes = Array(text.utf8)
            return [0, 2] + withUnsafeBytes(of: Int32(bytes.count).bigEndian, Array.init) + bytes
                + withUnsafeBytes(of: Int32(4).bigEndian, Array.init) + withUnsafeBytes(of: number.bigEndian, Array.init)
        }
        let sorter = BinaryCopySorter(keys: [.bytes(0), .integer(1)])
        var reader = BinaryCopyReader()
        for message in [header + tuple("b", 2), tuple("a", 9), tuple("b", 1)] {
            try message.withUnsafeBytes { raw in
                if try reader.read(raw) { try sorter.add(raw, fields: reader.fields) }
            }
        }
        var out: [[UInt8]] = []
        try sorter.finish { out.append(Array($0)) }
        #expect(out == [tuple("a", 9), tuple("b", 1), tuple("b", 2)])
        var none = 0
        try BinaryCopySorter(keys: [.bytes(0)]).finish { _ in none += 1 }
        #expect(none == 0)
    }

    /// A spill that cannot be written fails naming the folder and the system's reason; nothing is handed out.
    @Test func aSpillThatCannotBeWrittenNamesTheFolder() throws {
        let db = try PostgresTestDatabase.connect()
        let folder = "/nonexistent-\(UUID().uuidString)"
        let sorter = BinaryCopySorter(keys: [.bytes(0)], runBytes: 1 << 10, directory: folder)
        var reader = BinaryCopyReader()
        let error = try #require(throws: BinaryCopySorter.SpillError.self) {
            _ = try db.copyOutMessages("COPY (SELECT md5(n::text) FROM generate_series(1, 1000) n) TO STDOUT (FORMAT binary)") { message in
                if try reader.read(message) { try sorter.add(message, fields: reader.fields) }
            }
        }
        #expect("\(error)".contains("cannot create a temporary file in \(folder): No such file or directory"), "\(error)")
    }

    /// A key the tuple does not have, or an integer key that is not 2, 4 or 8 bytes, is an error, not a wrong order.
    @Test func aKeyTheTupleCannotGiveIsAnError() throws {
        let db = try PostgresTestDatabase.connect()
        for (keys, reason) in [([BinaryCopySorter.Key.bytes(2)], "key field 3 of a 2-field tuple"),
                               ([BinaryCopySorter.Key.integer(0)], "key field 1 is not an integer")] {
            let sorter = BinaryCopySorter(keys: keys)
            var reader = BinaryCopyReader()
            let error = try #require(throws: PostgresError.self) {
                _ = try db.copyOutMessages("COPY (SELECT 'abc'::text, 1::int8) TO STDOUT (FORMAT binary)") { message in
                    if try reader.read(message) { try sorter.add(message, fields: reader.fields) }
                }
            }
            #expect("\(error)".contains(reason), "\(error)")
        }
    }
}

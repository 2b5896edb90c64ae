import CompactMemory
import Postgres
@testable import Reconciliation
import TestSupport
import Testing

/// The Google month's stream is sorted by the server as `ORDER BY order_id COLLATE "C"`; the items CSV lists orders
/// in the order of their bytes (`String`'s for ASCII IDs). The two are the same order, including IDs that are
/// prefixes of others, renewals `..N` and non-ASCII bytes, and `GoogleOrderUnits.isBefore` agrees with it.
@Suite struct ByteOrderTests {
    @Test func theServersCollateCOrderIsTheBytesOrder() throws {
        let roles = try RoleDatabase.fresh("byte_order")
        let database = try PostgresConnection(configuration: roles.superuser)
        defer { database.close() }
        var values = ["G", "GPA.1", "GPA.1..0", "GPA.1..10", "GPA.3000-2791-0000-00000..5", "GPA.3000-2791-0000-00000..20",
                      "GPA.3000-2791-0000-00001", "GPA.3000-2791", "GPA.3000-2790-9999-99999", "GPA.3000-2791-0000-0000",
                      "gpa.1", "GPA.1 ", "GPA-1", "GPA.é", "GPA.z", "GPA._", "GPA.~"]
        for index in 0..<500 { values.append("GPA.\(3_000 + index % 97)-\(index % 13)\(index % 7)-0000-\(index)..\(index % 11)") }
        let unique = Array(Set(values))
        let sorted = try database.query("SELECT v FROM unnest($1::text[]) AS v ORDER BY v COLLATE \"C\"", [PostgresTextArray(unique)])
            .rows.map { try $0.decode(String.self, "v") }
        let bytes = unique.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(sorted == bytes)
        #expect(sorted.filter { $0.utf8.allSatisfy { $0 < 0x80 } } == unique.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.sorted())
        let period = try #require(ReconciliationPeriod(.google, "2026-10"))
        var order = GoogleOrderUnits(periods: [period])
        for (earlier, later) in zip(sorted, sorted.dropFirst()) {
            Array(earlier.utf8).withUnsafeBytes { order.start($0) }
            #expect(Array(later.utf8).withUnsafeBytes { order.isBefore($0) }, "\(earlier) < \(later)")
            #expect(!Array(earlier.utf8).withUnsafeBytes { order.isBefore($0) })
        }
    }

    /// `ByteInterner.compare` (the merge's comparison, by `memcmp`) orders every pair as their bytes do, prefixes first,
    /// and `GoogleOrderUnits.holds` is its equality.
    @Test func compareIsTheBytesOrder() {
        let values = ["", "G", "GPA.1", "GPA.1..0", "GPA.1..10", "GPA.3000-2791-0000-00000..5", "GPA.3000-2791-0000-00001",
                      "GPA.3000-2791", "gpa.1", "GPA.1 ", "GPA-1", "GPA.é", "GPA.z", "GPA.~", "\u{7F}", "é"]
        let period = ReconciliationPeriod(.google, "2026-10")!
        var order = GoogleOrderUnits(periods: [period])
        for left in values {
            for right in values {
                let (a, b) = (Array(left.utf8), Array(right.utf8))
                let sign = a.withUnsafeBytes { x in b.withUnsafeBytes { y in ByteInterner.compare(x, y) } }.signum()
                let expected = a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
                #expect(sign == expected, "\(left) against \(right)")
                a.withUnsafeBytes { order.start($0) }
                #expect(b.withUnsafeBytes { order.holds($0) } == (a == b), "\(left) holds \(right)")
            }
        }
    }

    /// `ReconciliationCSV.firstIndex` (the masked key's token end) finds a byte from an offset on, as `firstIndex(of:)` on the slice does.
    @Test func firstIndexFindsTheByteFromTheOffset() {
        let bytes = Array("GPA.token:with:colons".utf8)
        bytes.withUnsafeBytes { raw in
            for from in 0...bytes.count {
                #expect(ReconciliationCSV.firstIndex(of: 0x3A, in: raw, from: from) == bytes[from...].firstIndex(of: 0x3A), "from \(from)")
            }
            #expect(ReconciliationCSV.firstIndex(of: 0x23, in: raw, from: 0) == nil)
        }
    }
}

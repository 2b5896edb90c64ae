@testable import Reporting
import Testing

/// A month's rows held in the store digest's encoding (`MonthRowsDigest`, migration 0047) come back as they went in,
/// in batches, and the digest tells apart rows that differ only in where a cell ends or whether it is NULL.
struct MonthRowsDigestTests {
    static let rows: [[String?]] = [
        ["2026-01", "GOOGLE", nil, "9.99", ""],
        ["2026-01", "APPLE", "Zürich \"Pro\"\n", "-0.01", "x"],
        ["2026-01", nil, nil, nil, nil],
    ]

    @Test func theRowsComeBackInBatchesAsTheyWentIn() throws {
        var digest = MonthRowsDigest(columns: ["month", "provider", "product", "mrr", "note"])
        for row in Self.rows { digest.add(row) }
        #expect(digest.count == 3)
        var batches: [[[String?]]] = []
        try digest.forEachBatch(of: 2) { batches.append($0) }
        #expect(batches.count == 2)
        #expect(batches.flatMap { $0 } == Self.rows)
        let empty = MonthRowsDigest(columns: ["month"])
        try empty.forEachBatch(of: 2) { _ in Issue.record("an empty month has no batch") }
    }

    @Test func theDigestSeesWhereACellEndsAndANull() {
        func hex(_ rows: [[String?]], columns: [String] = ["a", "b"]) -> String {
            var digest = MonthRowsDigest(columns: columns)
            for row in rows { digest.add(row) }
            return digest.hex()
        }
        let base = hex([["ab", "c"]])
        #expect(base == hex([["ab", "c"]]))
        #expect(base != hex([["a", "bc"]]))
        #expect(hex([[nil, "c"]]) != hex([["", "c"]]))
        #expect(base != hex([["ab", "c"]], columns: ["a", "B"]))
        #expect(hex([["ab", "c"], ["d", "e"]]) != hex([["ab", "c", "d", "e"]]))
        #expect(base.count == 64)
    }
}

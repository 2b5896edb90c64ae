import Testing
@testable import StoreExports

/// Apple's report files have a cell limit of 4 KiB and a line limit of 64 KiB (docs/STORE_REPORTS.md, "Limits"): a cell
/// at the limit is read, one byte over is a rejection at its line and column, and a 50 MB cell is refused as soon as
/// the reader passes the limit instead of being staged.
struct AppleReportLimitsTests {
    /// The Summary Sales fixture with line 2's `Title` (column 5) replaced by `title`.
    static func summarySales(title: String) throws -> [UInt8] {
        var lines = String(decoding: try ReportFixtures.bytes("apple/S_D_85000000_20251103.txt"), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cells = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        cells[4] = title
        lines[1] = cells.joined(separator: "\t")
        return Array(lines.joined(separator: "\n").utf8)
    }

    @Test func aCellAtTheLimitIsReadAndOneByteMoreIsRefused() throws {
        let atLimit = String(repeating: "é", count: 2_048)
        let rows = try AppleSummarySalesParser.parse(try Self.summarySales(title: atLimit), file: "S_D.txt")
        #expect(rows.first?.title == atLimit)
        let error = try #require(rejection { try AppleSummarySalesParser.parse(try Self.summarySales(title: atLimit + "x"), file: "S_D.txt") })
        #expect(error.description == "S_D.txt:2:5: cell longer than 4096 bytes (the limit for this report)")
    }

    @Test func aFiftyMegabyteCellIsRefusedWithItsPosition() throws {
        let bytes = try Self.summarySales(title: String(repeating: "x", count: 50_000_000))
        let error = try #require(rejection { try AppleSummarySalesParser.parse(bytes, file: "S_D.txt") })
        #expect(error.line == 2 && error.column == 5 && error.reason.hasPrefix("cell longer than 4096 bytes"), "\(error)")
    }

    @Test func theLineLimitCountsSeparatorsAndQuotedNewlinesDoNotEndALine() throws {
        let reader = DelimitedReader(separator: UInt8(ascii: ","), quoting: true, limits: DelimitedLimits(cellBytes: 8, lineBytes: 12))
        #expect(try reader.records(Array("a,b\n12345678,1\n".utf8)[...], file: "f").count == 2)
        let quoted = rejection { try reader.records(Array("a,\"1\n2\n3\n4\n\",5678\n".utf8)[...], file: "f") }
        #expect(quoted?.description == "f:1:3: line longer than 12 bytes (the limit for this report)")
        let long = rejection { try reader.records(Array("a,b\n12345678,1234\n".utf8)[...], file: "f") }
        #expect(long?.description == "f:2:2: line longer than 12 bytes (the limit for this report)")
        let cell = rejection { try reader.records(Array("123456789\n".utf8)[...], file: "f") }
        #expect(cell?.description == "f:1:1: cell longer than 8 bytes (the limit for this report)")
    }
}

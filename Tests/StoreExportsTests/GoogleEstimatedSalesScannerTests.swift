import Testing
@testable import StoreExports

/// Google's estimated sales report is read as a stream (`CSVScanner`, issue 27 "bounded memory"): whatever the chunks
/// the bytes come in (1 to 4,096 bytes), the rows and the rejection (file, line, column, reason) are those of
/// `GoogleEstimatedSalesParser.parse` reading the file in one piece; and a record over the line limit is not held.
@Suite struct GoogleEstimatedSalesScannerTests {
    static let sizes = [1, 2, 3, 7, 64, 4_096]

    /// What scanning `bytes` in chunks of `size` gives: the rows handed on, or the rejection; `held` is raised to the
    /// most bytes the scanner held between chunks.
    static func scan(_ bytes: [UInt8], file: String, chunk size: Int, held: inout Int) -> Result<[GoogleEstimatedSalesRow], StoreReportError> {
        var scanner = GoogleEstimatedSalesParser.scanner(file: file)
        var rows: [GoogleEstimatedSalesRow] = []
        do {
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                try bytes[start..<end].withUnsafeBytes { try scanner.feed($0) { rows.append($0) } }
                held = max(held, scanner.heldBytes)
                start = end
            }
            try scanner.finish { rows.append($0) }
            #expect(scanner.rows == rows.count)
            return .success(rows)
        } catch {
            guard let error = error as? StoreReportError else {
                Issue.record("not a StoreReportError: \(error)")
                return .success([])
            }
            return .failure(error)
        }
    }

    /// What the whole-file parser gives for `bytes`.
    static func whole(_ bytes: [UInt8], file: String) -> Result<[GoogleEstimatedSalesRow], StoreReportError> {
        do { return .success(try GoogleEstimatedSalesParser.parse(bytes, file: file)) } catch {
            return .failure(error as? StoreReportError ?? StoreReportError(file: file, line: 0, column: 0, reason: "\(error)"))
        }
    }

    /// Expects every chunking of `bytes` to give what the whole-file parser gives.
    static func expectSameInChunks(_ bytes: [UInt8], _ file: String) {
        let expected = whole(bytes, file: file)
        var held = 0
        for size in sizes {
            #expect(scan(bytes, file: file, chunk: size, held: &held) == expected, "\(file) in chunks of \(size)")
        }
    }

    static let malformed = MalformedCorpusTests.corpus.filter { $0.1 == .gs }.map(\.0)

    @Test(arguments: ["salesreport_202401.csv", "salesreport_202511.csv"])
    func fixturesGiveTheParsersRowsInAnyChunking(_ file: String) throws {
        let bytes = try ReportFixtures.bytes("google/" + file)
        #expect(try !GoogleEstimatedSalesParser.parse(bytes, file: file).isEmpty)
        Self.expectSameInChunks(bytes, file)
    }

    @Test(arguments: malformed) func malformedFilesGiveTheParsersRejectionInAnyChunking(_ name: String) throws {
        let bytes = try ReportFixtures.bytes("malformed/" + name)
        guard case .failure = Self.whole(bytes, file: name) else { Issue.record("\(name) was accepted"); return }
        Self.expectSameInChunks(bytes, name)
    }

    /// Files with two defects and harder rows (quoted cells with a doubled quote and a line break, CRLF, a blank line,
    /// a byte-order mark, a last line without a newline): the stream reports the defect the whole-file parser reports
    /// (the encoding of the whole file first, then the header, quoting and limits of every record, then the rows'
    /// fields), not the first in the file.
    @Test func severalDefectsAndHarderRowsReadAsTheParserReadsThem() throws {
        let text = String(decoding: try ReportFixtures.bytes("google/salesreport_202401.csv"), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        let header = lines[0], good = lines[1]
        func with(_ index: Int, _ value: String, in line: String = good) -> String {
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            cells[index] = value
            return cells.joined(separator: ",")
        }
        let badField = with(12, "1.00"), badQuote = with(5, "Pro\"x"), multiline = with(5, "\"Pro, \"\"Plus\"\"\nyearly\"")
        let longCell = with(5, String(repeating: "é", count: 2_100)), latin1: [UInt8] = [0x0A, 0x41, 0xFF, 0x0A]
        var files: [[UInt8]] = [
            Array([header, good, badField, good, badQuote, good].joined(separator: "\n").utf8),
            Array([header, good, multiline, good].joined(separator: "\r\n").utf8),
            Array(([header, good, "", good].joined(separator: "\n") + "\n").utf8),
            [0xEF, 0xBB, 0xBF] + Array([header, multiline, badField].joined(separator: "\n").utf8),
            Array([header, badField, longCell, good].joined(separator: "\n").utf8),
            Array(([header, badQuote, good].joined(separator: "\n") + "\n\"open").utf8),
            Array([header + ",Bonus", good + ",1"].joined(separator: "\n").utf8),
            Array([header, good, with(5, "\"" + String(repeating: "x,\n", count: 30_000) + "\""), badField].joined(separator: "\n").utf8),
        ]
        for index in [0, 4, 5, 7] { files.append(files[index] + latin1) }
        for (index, bytes) in files.enumerated() { Self.expectSameInChunks(bytes, "f\(index).csv") }
        for bytes: [UInt8] in [[], [0xFF, 0xFE, 0x41, 0x00], [0x0A, 0x20, 0x0A], [0xEF, 0xBB, 0xBF], [0x0A, 0x0A, 0x41, 0x0A],
                               Array(String(repeating: " ", count: 70_000).utf8)] {
            Self.expectSameInChunks(bytes, "b.csv")
        }
    }

    /// A record of 1 MiB (a quoted cell that never closes its line) is refused at its start and not held: the scanner
    /// keeps at most a line's limit and a chunk between chunks.
    @Test func anOverLongRecordIsRefusedWithoutBeingHeld() throws {
        let text = String(decoding: try ReportFixtures.bytes("google/salesreport_202401.csv"), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        let bytes = Array((lines[0] + "\n" + lines[1] + "\n\"" + String(repeating: "a\n", count: 1 << 19) + "\"\n" + lines[2] + "\n").utf8)
        var held = 0
        let outcome = Self.scan(bytes, file: "long.csv", chunk: 4_096, held: &held)
        #expect(outcome == Self.whole(bytes, file: "long.csv"))
        guard case .failure(let error) = outcome else { Issue.record("accepted"); return }
        #expect(error.line == 3 && error.column == 1 && error.reason.contains("longer than"), "\(error)")
        #expect(held <= GoogleEstimatedSalesParser.limits.lineBytes + 2 + 4_096, "held \(held)")
    }
}

import Foundation
import Testing
@testable import StoreExports
import Archive

/// The streaming earnings scanner against the whole-file parser: the same rows from every fixture whatever the
/// chunking, and the same rejection (file, line, column, reason) for every malformed earnings file of the corpus and
/// for files with several defects.
@Suite struct GoogleEarningsScannerTests {
    static let fixtures = ["earnings_201604_1234567890123-0.csv", "earnings_201911_1234567890123-0.csv",
                           "earnings_202501_1234567890123-1.csv"]

    /// Feeds `bytes` in chunks of `size` to the full-row reader (the import's) and returns the rows.
    static func scanRows(_ bytes: [UInt8], file: String, chunk size: Int) throws -> [GoogleEarningsRow] {
        var scanner = GoogleEarningsScanner(file: file)
        var rows: [GoogleEarningsRow] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            try bytes[offset..<end].withUnsafeBytes { try scanner.feedRows($0) { rows.append($0) } }
            offset = end
        }
        try scanner.finishRows { rows.append($0) }
        return rows
    }

    @Test(arguments: fixtures) func fullRowsAreTheParsersInAnyChunking(_ file: String) throws {
        let bytes = try ReportFixtures.bytes("google/" + file)
        let expected = try GoogleEarningsParser.parse(bytes, file: file)
        for size in [1, 7, 1 << 16] {
            #expect(try Self.scanRows(bytes, file: file, chunk: size) == expected, "chunk \(size)")
        }
    }

    /// Files with two defects: the full-row reader reports the one the whole-file parser reports (the encoding of
    /// the whole file first, then the header and quoting of every record, then the rows' fields), not the first in
    /// the file; every malformed earnings file of the corpus too.
    @Test func fullRowsAreRefusedForTheParsersReason() throws {
        let header = GoogleEarningsParser.columns.filter(\.required).map(\.name).joined(separator: ",")
        func row(_ type: String = "Charge", title: String = "Pro", time: String = "3:29:44 AM PDT") -> String {
            ["GPA.1", "\"Jul 3, 2026\"", time, "", type, "", title, "com.example.app", "1", "pro", "Pixel", "DE", "", "", "EUR",
             "9.99", "1.0812", "USD", "1.00"].joined(separator: ",")
        }
        let badField = row("Play Points"), badQuote = row(title: "Pro\"x"), badTime = row(time: "13:00:00 AM")
        var files: [[UInt8]] = [
            Array([header, row(), badField, row(), badQuote, row()].joined(separator: "\n").utf8),
            Array([header, badTime, badField].joined(separator: "\n").utf8),
            Array([header, badField, row(), row(title: "Pr\u{FC}"), badQuote].joined(separator: "\n").utf8),
            Array(([header, badQuote, row()].joined(separator: "\n") + "\n\"open").utf8),
            Array([header + ",Bonus", row() + ",1", row(title: "\"x\"y")].joined(separator: "\n").utf8),
        ]
        // A byte that is not UTF-8 after a defect of every other kind.
        for index in [2, 3, 4] { files[index] += [0x0A, 0x41, 0xFF, 0x0A] }
        for (index, bytes) in files.enumerated() {
            let expected = try #require(rejection { try GoogleEarningsParser.parse(bytes, file: "d.csv") }, "file \(index)")
            for size in [1, 5, 1 << 16] {
                #expect(rejection { try Self.scanRows(bytes, file: "d.csv", chunk: size) } == expected, "file \(index), chunk \(size)")
            }
        }
        for name in Self.malformed {
            let bytes = try ReportFixtures.bytes("malformed/" + name)
            let expected = try #require(rejection { try GoogleEarningsParser.parse(bytes, file: name) })
            for size in [3, 1 << 16] {
                #expect(rejection { try Self.scanRows(bytes, file: name, chunk: size) } == expected, "\(name), chunk \(size)")
            }
        }
        for bytes: [UInt8] in [[0xFF, 0xFE, 0x41, 0x00], [0x0A, 0x20, 0x0A], [0xEF, 0xBB, 0xBF], [0x0A, 0x0A, 0x41, 0x0A]] {
            let expected = try #require(rejection { try GoogleEarningsParser.parse(bytes, file: "b.csv") })
            #expect(rejection { try Self.scanRows(bytes, file: "b.csv", chunk: 1) } == expected, "\(bytes)")
        }
    }

    /// Plain rows and harder ones (quoted cells with a doubled quote, a line break, a zone-less time, a `+` sign)
    /// agree with the parser, line numbers included.
    @Test func plainAndOrdinaryRowsAgree() throws {
        let header = GoogleEarningsParser.columns.filter(\.required).map(\.name).joined(separator: ",")
        func row(_ order: String, _ date: String, _ time: String, _ type: String, _ title: String, _ amount: String) -> String {
            [order, date, time, "", type, "", title, "com.example.app", "1", "pro", "Pixel", "DE", "Baden-Württemberg", "70173",
             "EUR", amount, "1.0812", "USD", "1.00"].joined(separator: ",")
        }
        let text = [header,
                    row("GPA.1", "\"Jul 3, 2026\"", "3:29:44 AM PDT", "Charge", "Pro", "9.99"),
                    row("GPA.1", "\"Jul 3, 2026\"", "3:29:44 AM PDT", "Google fee", "Pro", "-1.50"),
                    row("GPA.2", "\"Jul 31, 2026\"", "11:59:59 PM", "Tax", "\"Pro, \"\"Plus\"\"\nyearly\"", "-1.000000"),
                    row("GPA.3", "\"Jul 4, 2026\"", "12:00:00 AM UTC", "Charge", "Prö", "+9.99"),
                    row("GPA.4", "\"Jul 4, 2026\"", "12:00:01 PM GMT", "Charge rebill", "\"Pro\"", "1500")].joined(separator: "\r\n")
        let bytes = Array(text.utf8)
        let expected = try GoogleEarningsParser.parse(bytes, file: "t.csv")
        #expect(expected.map(\.line) == [2, 3, 4, 6, 7])
        for size in [1, 5, 1 << 16] {
            #expect(try Self.scanRows(bytes, file: "t.csv", chunk: size) == expected, "chunk \(size)")
        }
    }

    /// Rows that repeat or change the date, time, rate and product type, every transaction type the stores write, and
    /// a bad time after a good one on the same date are read as the parser reads them (the bad one rejected with the
    /// parser's message).
    @Test func repeatedAndChangedDatesTimesRatesAndTypesReadAsTheParserReadsThem() throws {
        let header = GoogleEarningsParser.columns.filter(\.required).map(\.name).joined(separator: ",")
        func row(_ date: String, _ time: String, _ type: String, rate: String = "1.0812", productType: String = "1") -> String {
            let refund = type.hasSuffix("refund") ? "Full" : ""
            return ["GPA.1", "\"\(date)\"", time, "", type, refund, "Pro", "com.example.app", productType, "pro", "Pixel", "DE", "",
                    "", "EUR", "9.99", rate, "USD", "1.00"].joined(separator: ",")
        }
        let types = ["Charge", "Google fee", "Tax", "Charge refund", "Google fee refund", "Tax refund", "Charge rebill",
                     "Google fee rebill", "Tax rebill"]
        var rows = [header]
        for (index, type) in types.enumerated() {
            rows.append(row("Jul 3, 2026", "3:29:44 AM PDT", type))
            rows.append(row("Jul 3, 2026", "3:29:45 AM PDT", type, rate: index % 2 == 0 ? "1.0812" : "1.0813"))
            rows.append(row("Jul 4, 2026", "3:29:45 AM PDT", type, productType: index % 3 == 0 ? "1" : "0"))
            rows.append(row("Jul 4, 2026", "3:29:45 PM PST", type))
            rows.append(row("Nov 1, 2026", "1:30:00 AM PDT", type))
            rows.append(row("Nov 1, 2026", "1:30:00 AM PST", type))
        }
        let bytes = Array((rows.joined(separator: "\n") + "\n").utf8)
        let expected = try GoogleEarningsParser.parse(bytes, file: "m.csv")
        #expect(expected.count == types.count * 6)
        #expect(Set(expected.map(\.transactionEpochSeconds)).count == 6)
        for size in [1, 9, 1 << 16] {
            #expect(try Self.scanRows(bytes, file: "m.csv", chunk: size) == expected, "chunk \(size)")
        }
        let bad = Array((rows[0...2].joined(separator: "\n") + "\n" + row("Jul 3, 2026", "13:29:44 AM PDT", "Charge") + "\n").utf8)
        let parsed = try #require(rejection { try GoogleEarningsParser.parse(bad, file: "m.csv") })
        #expect(try #require(rejection { try Self.scanRows(bad, file: "m.csv", chunk: 1 << 16) }) == parsed)
    }

    static let malformed = MalformedCorpusTests.corpus.filter { $0.1 == .ge }.map(\.0)

    @Test(arguments: malformed) func sameRejectionAsTheParser(_ name: String) throws {
        let bytes = try ReportFixtures.bytes("malformed/" + name)
        let expected = try #require(rejection { try GoogleEarningsParser.parse(bytes, file: name) })
        for size in [3, 1 << 16] {
            let error = try #require(rejection { try Self.scanRows(bytes, file: name, chunk: size) })
            #expect(error == expected, "chunk \(size)")
        }
    }

    @Test func emptyUTF16AndBlankFilesAreRejectedAsTheParserRejectsThem() throws {
        for bytes: [UInt8] in [[], [0xFF, 0xFE, 0x41, 0x00], [0x0A, 0x20, 0x0A], [0xEF, 0xBB, 0xBF], [0x0A, 0x0A, 0x41, 0x0A]] {
            let expected = try #require(rejection { try GoogleEarningsParser.parse(bytes, file: "b.csv") })
            let error = try #require(rejection { try Self.scanRows(bytes, file: "b.csv", chunk: 1) })
            #expect(error == expected, "\(bytes)")
        }
    }
}

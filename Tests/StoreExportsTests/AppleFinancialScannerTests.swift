import BillingCore
import TestSupport
import Testing
@testable import StoreExports

/// Apple's financial reports are read as a stream (`AppleFinancialScanner`, issue 27 "bounded memory"): whatever the
/// chunks the bytes come in (1 to 4,096 bytes), the rows and the rejection (file, line, column, reason) are those the
/// whole-file parser gave before (kept below as `WholeFileFinancialReference`), for every good fixture and every
/// malformed `afr-` corpus file; and the scanner holds no more than a line between chunks.
struct AppleFinancialScannerTests {
    /// Rows, totals, country table and rejection of one read.
    struct Outcome: Equatable {
        var rows: [AppleFinancialRow] = []
        var totals: AppleFinancialTotals?
        var summary: [AppleCountrySummaryRow] = []
        var error: StoreReportError?
    }

    /// Scans `bytes` in chunks of `size`; `held` is raised to the most bytes the scanner held between chunks.
    static func scan(_ bytes: [UInt8], file: String, chunk size: Int, held: inout Int) -> Outcome {
        var scanner = AppleFinancialScanner(file: file)
        var outcome = Outcome()
        do {
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                try bytes[start..<end].withUnsafeBytes { try scanner.feed($0) { outcome.rows.append($0) } }
                held = max(held, scanner.heldBytes)
                start = end
            }
            let tail = try scanner.finish { outcome.rows.append($0) }
            outcome.totals = tail.totals
            outcome.summary = tail.countrySummary
        } catch {
            // Rows handed on before a rejection are thrown away with the transaction: only the rejection is compared.
            return Outcome(error: error as? StoreReportError)
        }
        return outcome
    }

    /// The old whole-file parser's outcome.
    static func reference(_ bytes: [UInt8], file: String) -> Outcome {
        do {
            let report = try WholeFileFinancialReference.parse(bytes, file: file)
            return Outcome(rows: report.rows, totals: report.totals, summary: report.countrySummary)
        } catch {
            return Outcome(error: error as? StoreReportError)
        }
    }

    /// Every financial fixture and malformed financial file, with extra names that exercise the period check.
    static func files() throws -> [(path: String, name: String)] {
        let good = try ReportFixtures.names(in: "apple").filter { $0.first?.isNumber == true }
        let bad = try ReportFixtures.names(in: "malformed").filter { $0.hasPrefix("afr-") }
        var files = good.map { ("apple/" + $0, $0) } + bad.map { ("malformed/" + $0, $0) }
        // The CH fixture under the names of its own period and of another (refused at its first row).
        files += [("apple/45545510_0914_CH.txt", "45545510_0914_CH.txt"), ("apple/45545510_0914_CH.txt", "45545510_0814_CH.txt")]
        return files
    }

    @Test func anyChunkingGivesTheRowsOrTheRejectionOfTheWholeFileParser() throws {
        let files = try Self.files()
        #expect(files.count >= 27, "\(files)")
        var rejected = 0
        for (path, name) in files {
            var bytes = try ReportFixtures.bytes(path)
            if path.hasSuffix(".gz") { bytes = try ReportArchive.gunzip(bytes, file: name) }
            let expected = Self.reference(bytes, file: name)
            if expected.error != nil { rejected += 1 }
            var held = 0
            for size in [1, 2, 3, 7, 64, 4_096, max(bytes.count, 1)] {
                #expect(Self.scan(bytes, file: name, chunk: size, held: &held) == expected, "\(path) as \(name) in chunks of \(size)")
            }
            #expect(held <= DelimitedLimits.apple.lineBytes + 4, "\(path) held \(held) bytes")
        }
        #expect(rejected >= 24)
    }

    /// The per-country table after the totals is kept until the end, so it is bounded: the consolidated fixture (four
    /// country rows, the last on line 16) with rows appended up to the limit imports; one more is refused at its line.
    @Test func aPerCountryTableLongerThanApplesIsRefusedAtItsLine() throws {
        let bytes = try ReportFixtures.bytes("apple/85000000_1125_ZZ.txt"), file = "85000000_1125_ZZ.txt"
        func withCountryRows(_ total: Int) -> [UInt8] {
            bytes + Array(String(repeating: "US\tUSD\t0\t0.00\n", count: total - 4).utf8)
        }
        let full = try AppleFinancialReportParser.parse(withCountryRows(AppleFinancialFooter.summaryRowLimit), file: file)
        #expect(full.countrySummary.count == AppleFinancialFooter.summaryRowLimit)
        let error = try #require(throws: StoreReportError.self) {
            try AppleFinancialReportParser.parse(withCountryRows(AppleFinancialFooter.summaryRowLimit + 1), file: file)
        }
        #expect(error.line == 16 + AppleFinancialFooter.summaryRowLimit + 1 - 4 && error.column == 1)
        #expect(error.reason.hasPrefix("more than 1000 rows in the per-country table"))
    }

    @Test func parseIsTheScannerFedTheWholeFile() throws {
        let bytes = try ReportFixtures.bytes("apple/85000000_1125_ZZ.txt")
        let report = try AppleFinancialReportParser.parse(bytes, file: "85000000_1125_ZZ.txt")
        let expected = Self.reference(bytes, file: "85000000_1125_ZZ.txt")
        #expect(Outcome(rows: report.rows, totals: report.totals, summary: report.countrySummary) == expected)
        #expect(!report.countrySummary.isEmpty)
    }
}

/// The whole-file financial report parser as it was before the stream (commit f2bc6f0), kept only as the reference the
/// stream must equal.
enum WholeFileFinancialReference {
    static func parse(_ bytes: [UInt8], file: String) throws -> AppleFinancialReport {
        let columns = AppleFinancialReportParser.columns
        let body = try ReportText.utf8Body(bytes, file: file)
        let reader = DelimitedReader(separator: UInt8(ascii: "\t"), quoting: false, limits: .apple)
        let records = try reader.records(body, file: file) { _ = try HeaderLayout(header: $0, specs: columns, file: file) }
        guard let header = records.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
        let layout = try HeaderLayout(header: header, specs: columns, file: file)
        var rows: [AppleFinancialRow] = []
        var index = 1
        while index < records.count, !AppleFinancialReportParser.isFooterOrBlank(records[index]) {
            rows.append(try AppleFinancialReportParser.row(RowCells(records[index], layout, file: file)))
            index += 1
        }
        let footer = AppleFinancialFooter.Reader(file: file)
        for record in records[index...] { try footer.read(record) }
        let totals = try footer.totals(lastLine: records.last?.line ?? 1)
        try verify(totals, against: rows, file: file)
        let name = AppleReportFileName(file)
        if let name { try checkDates(rows, layout: layout, against: name, file: file) }
        return AppleFinancialReport(file: file, name: name, rows: rows, totals: totals.totals, countrySummary: footer.summary)
    }

    static func checkDates(_ rows: [AppleFinancialRow], layout: HeaderLayout, against name: AppleReportFileName, file: String) throws {
        let period = AppleFiscalCalendar.dates(of: name.period)
        for row in rows where !(period.contains(row.startDate) && period.contains(row.endDate)) {
            let column = (layout.positions[period.contains(row.startDate) ? "End Date" : "Start Date"] ?? 0) + 1
            throw StoreReportError(file: file, line: row.line, column: column,
                                   reason: "row dated \(row.startDate)…\(row.endDate) is outside \(name.period) (\(period.lowerBound)…\(period.upperBound)), the period the file name's MMYY '\(name.period.fileMMYY)' names")
        }
    }

    static func verify(_ footer: AppleFinancialFooter.Located, against rows: [AppleFinancialRow], file: String) throws {
        let amount = rows.reduce(Int64(0)) { $0 &+ $1.extendedPartnerShareMicros }
        let units = rows.reduce(Int64(0)) { $0 &+ max(0, $1.quantity) }
        if footer.totals.rows != Int64(rows.count) {
            throw StoreReportError(file: file, line: footer.rowsLine, column: 2,
                                   reason: "footer Total_Rows \(footer.totals.rows) but the file has \(rows.count) data rows")
        }
        if footer.totals.amountMicros != amount {
            throw StoreReportError(file: file, line: footer.amountLine, column: 2,
                                   reason: "footer Total_Amount \(Micros.format(footer.totals.amountMicros)) but the rows' Extended Partner Share sums to \(Micros.format(amount))")
        }
        if footer.totals.units != units {
            throw StoreReportError(file: file, line: footer.unitsLine, column: 2,
                                   reason: "footer Total_Units \(footer.totals.units) but the rows' sale units sum to \(units)")
        }
    }
}

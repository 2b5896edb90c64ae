import Testing
@testable import StoreExports

/// Apple's Sales and Trends reports are read as a stream (`AppleTabScanner`, issue 27 "bounded memory"): whatever the
/// chunks the bytes come in, the rows and the rejection (file, line, column, reason) are those of reading the file in
/// one piece; rows are handed on before the file ends; and an over-long line is not held whole.
struct AppleTabScannerTests {
    /// What scanning `bytes` in chunks of `size` gives: the rows handed on and the rejection, if any.
    struct Outcome<Row: Equatable>: Equatable {
        var rows: [Row] = []
        var error: StoreReportError?
    }

    /// Scans `bytes` in chunks of `size`; `held` is raised to the most bytes the scanner held between chunks.
    static func scan<Row: Equatable>(_ scanner: AppleTabScanner<Row>, _ bytes: [UInt8], chunk size: Int,
                                     held: inout Int) -> Outcome<Row> {
        var scanner = scanner
        var outcome = Outcome<Row>()
        do {
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                try bytes[start..<end].withUnsafeBytes { try scanner.feed($0) { outcome.rows.append($0) } }
                held = max(held, scanner.heldBytes)
                start = end
            }
            try scanner.finish { outcome.rows.append($0) }
        } catch {
            outcome.error = error as? StoreReportError
        }
        return outcome
    }

    /// Expects every chunking of `bytes` to give what reading it in one piece gives.
    static func expectSameInChunks<Row: Equatable>(_ scanner: AppleTabScanner<Row>, _ bytes: [UInt8], _ file: String) {
        var held = 0
        let whole = scan(scanner, bytes, chunk: max(bytes.count, 1), held: &held)
        for size in [1, 2, 3, 7, 64, 4_096] {
            #expect(scan(scanner, bytes, chunk: size, held: &held) == whole, "\(file) in chunks of \(size)")
        }
    }

    /// The rejection of the Subscriber text `bytes` scanned in chunks of `size` ("" when accepted).
    static func subscriberRejection(_ bytes: [UInt8], chunk size: Int, held: inout Int) -> String {
        let outcome = scan(AppleSubscriberReportParser.scanner(file: "Subscriber_1_20251103.txt"), bytes, chunk: size, held: &held)
        return outcome.error.map { "\($0)" } ?? ""
    }

    /// Every Sales and Trends fixture and malformed file of those reports.
    static func files() throws -> [String] {
        let good = try ReportFixtures.names(in: "apple").filter { $0.hasPrefix("Subscri") || $0.hasPrefix("S_D") }
        let bad = try ReportFixtures.names(in: "malformed").filter {
            ["sub-", "ss-", "ssn-", "sev-"].contains(where: $0.hasPrefix)
        }
        return good.map { "apple/" + $0 } + bad.map { "malformed/" + $0 }
    }

    @Test func anyChunkingGivesTheRowsOrTheRejectionOfTheWholeFile() throws {
        let files = try Self.files()
        #expect(files.count >= 20, "\(files)")
        for file in files {
            let bytes = try ReportFixtures.bytes(file)
            let base = file.split(separator: "/").last.map(String.init) ?? file
            if base.hasPrefix("Subscriber") || base.hasPrefix("sub-") {
                Self.expectSameInChunks(AppleSubscriberReportParser.scanner(file: base), bytes, file)
            } else if base.hasPrefix("S_D") || base.hasPrefix("ss-") {
                Self.expectSameInChunks(AppleSummarySalesParser.scanner(file: base), bytes, file)
            } else if base.hasPrefix("Subscription_Event") || base.hasPrefix("sev-") {
                Self.expectSameInChunks(AppleSubscriptionEventParser.scanner(file: base), bytes, file)
            } else {
                let day = CalendarDate(year: 2025, month: 11, day: 3)
                Self.expectSameInChunks(try AppleSubscriptionReportParser.scanner(file: base, reportDate: day).reader, bytes, file)
            }
        }
    }

    /// The Subscriber fixture's data rows repeated `times` times after its header, lines renumbered by position.
    static func bigSubscriber(times: Int, lastLine: String? = nil) throws -> [UInt8] {
        let text = String(decoding: try ReportFixtures.bytes("apple/Subscriber_85000000_20251103.txt"), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        var out = lines[0] + "\n"
        for _ in 0..<times { for line in lines.dropFirst() { out += line + "\n" } }
        if let lastLine { out += lastLine + "\n" }
        return Array(out.utf8)
    }

    @Test func rowsAreHandedOnBeforeTheFileEndsAndADefectAtTheEndStillRejectsIt() throws {
        let fixture = try AppleSubscriberReportParser.parse(try ReportFixtures.bytes("apple/Subscriber_85000000_20251103.txt"),
                                                            file: "Subscriber_85000000_20251103.txt")
        let bytes = try Self.bigSubscriber(times: 2_000, lastLine: "not\ta\trow")
        var scanner = AppleSubscriberReportParser.scanner(file: "Subscriber_85000000_20251103.txt")
        var handed = 0
        var proceeds: Int64 = 0
        let half = bytes.count / 2
        try bytes[..<half].withUnsafeBytes { try scanner.feed($0) { handed += 1; proceeds += $0.developerProceedsMicros } }
        // Half the file read: about half its rows are out already (the whole-file parser returned none before the end).
        #expect(handed > 3_000 && handed < 5_000, "\(handed)")
        #expect(scanner.heldBytes < 1_000)
        try bytes[half...].withUnsafeBytes { try scanner.feed($0) { handed += 1; proceeds += $0.developerProceedsMicros } }
        #expect(handed == 2_000 * fixture.rows.count)
        #expect(proceeds == 2_000 * fixture.rows.reduce(0) { $0 + $1.developerProceedsMicros })
        let lastLine = 2 + 2_000 * fixture.rows.count
        let error = try #require(rejection { try scanner.finish { _ in handed += 1 } })
        #expect(error.line == lastLine && error.reason == "row has 3 fields, the header has 26", "\(error)")
    }

    @Test func anOverlongLineIsRefusedWithoutBeingHeldAndTheEncodingAfterItIsStillChecked() throws {
        let base = String(decoding: try Self.bigSubscriber(times: 1), as: UTF8.self)
        var lines = base.split(separator: "\n").map(String.init)
        // Line 3 grows by 210 000 bytes of short cells: over the line limit, under the cell limit.
        let longStart = lines[0..<2].reduce(0) { $0 + $1.utf8.count + 1 } + lines[2].utf8.count
        lines[2] += String(repeating: "\tab", count: 70_000)
        let overlong = Array((lines.joined(separator: "\n") + "\n").utf8)
        var held = 0
        let whole = Self.subscriberRejection(overlong, chunk: overlong.count, held: &held)
        held = 0
        let chunked = Self.subscriberRejection(overlong, chunk: 1_000, held: &held)
        #expect(whole.hasPrefix("Subscriber_1_20251103.txt:3:") && whole.contains(": line longer than 65536 bytes"), "\(whole)")
        #expect(chunked == whole)
        #expect(held <= 65_536 + 2 + 1_000, "\(held) bytes held")

        // An invalid byte deep inside that line is reported first, at the character column a whole-file check names.
        var invalid = overlong
        invalid[longStart + 150_000] = 0xFF
        let expected = try #require(rejection { try ReportText.validate(invalid[...], file: "Subscriber_1_20251103.txt") })
        #expect(expected.line == 3 && expected.reason == "invalid UTF-8 byte 0xFF", "\(expected)")
        for size in [1_000, 4_096, invalid.count] {
            #expect(Self.subscriberRejection(invalid, chunk: size, held: &held) == "\(expected)", "chunks of \(size)")
        }
    }
}

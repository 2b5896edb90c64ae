import TestSupport
import Testing
@testable import StoreExports
import Archive

/// The malformed-file corpus (Fixtures/malformed, derived from the good fixtures as Fixtures/README.md
/// describes): every file is rejected whole with the file, line, column and reason named.
@Suite struct MalformedCorpusTests {
    /// Which parser reads a corpus file.
    enum Kind: Sendable {
        case afr, pay, sub, ss, ssn, sev, ge, gs, afrGz, geZip
    }

    /// File, parser, expected line, column and a fragment of the reason.
    static let corpus: [(String, Kind, Int, Int, String)] = [
        ("afr-missing-column.txt", .afr, 1, 22, "missing column 'Grid'"),
        ("afr-extra-column.txt", .afr, 1, 23, "unexpected column 'Bonus'"),
        ("afr-duplicate-column.txt", .afr, 1, 17, "duplicate column 'Title'"),
        ("afr-renamed-column.txt", .afr, 1, 7, "unexpected column 'Partner Shares'; missing 'Partner Share'"),
        ("afr-non-numeric-amount.txt", .afr, 3, 8, "'Extended Partner Share': '4.2O' is not a number"),
        ("afr-bad-date.txt", .afr, 2, 1, "'Start Date': '13/31/2014' is not a date (MM/DD/YYYY)"),
        ("afr-iso-date.txt", .afr, 5, 2, "'End Date': '2014-09-27' is not a date"),
        ("afr-footer-amount-mismatch.txt", .afr, 9, 2, "footer Total_Amount 6.310000 but the rows' Extended Partner Share sums to 6.300000"),
        ("afr-footer-rows-mismatch.txt", .afr, 8, 2, "footer Total_Rows 7 but the file has 6 data rows"),
        ("afr-footer-units-net.txt", .afr, 10, 2, "footer Total_Units 19 but the rows' sale units sum to 20"),
        ("afr-missing-footer.txt", .afr, 8, 1, "missing footer Total_Rows (truncated file?)"),
        ("afr-truncated-mid-row.txt", .afr, 6, 12, "fields, the header has 22"),
        ("afr-footer-twice.txt", .afr, 11, 1, "Total_Rows appears twice"),
        ("afr-bad-sale-or-return.txt", .afr, 4, 10, "'Sales or Return' is 'X', expected S or R"),
        ("afr-utf16.txt", .afr, 1, 1, "UTF-16 text (byte-order mark FF FE); expected UTF-8"),
        ("afr-utf16-no-bom.txt", .afr, 1, 2, "NUL byte (UTF-16 or binary data)"),
        ("afr-empty.txt", .afr, 1, 1, "empty file"),
        ("afr-only-newlines.txt", .afr, 1, 1, "empty file (no text)"),
        ("afr-latin1.txt", .afr, 4, 80, "invalid UTF-8 byte 0xFC"),
        ("afr-data-after-blank.txt", .afr, 6, 1, "unexpected line among the data and totals"),
        ("afr-bad-currency.txt", .afr, 2, 9, "'Partner Share Currency': 'chf' is not a currency code"),
        ("afr-quantity-decimal.txt", .afr, 7, 6, "'Quantity': '1.5' is not a whole number"),
        ("afr-finer-than-micros.txt", .afr, 4, 7, "'0.7000001' has non-zero digits beyond micros"),
        ("pay-missing-header.csv", .pay, 1, 1, "no 'Region (Currency)' header line"),
        ("pay-bank-total-mismatch.csv", .pay, 8, 11, "bank total 234.590000 EUR but the rows' Proceeds sum to 234.580000"),
        ("pay-total-owed-mismatch.csv", .pay, 6, 8, "Total Owed 143.000000 but subtotal, tax, adjustments and withholding give 142.000000"),
        ("pay-bad-thousands.csv", .pay, 4, 2, "'Units Sold': '1,20,4' is not a whole number"),
        ("pay-stray-line.csv", .pay, 11, 1, "unexpected line after the region rows"),
        ("pay-bad-region.csv", .pay, 6, 1, "'Japan JPY' is not 'Region (CUR)'"),
        ("pay-value-without-header.csv", .pay, 5, 12, "value in a column without a header"),
        ("sub-bad-date.txt", .sub, 2, 1, "'Event Date': '2025-11-31' is not a date (YYYY-MM-DD)"),
        ("sub-bad-refund.txt", .sub, 3, 24, "'Refund' is 'Maybe', expected Yes or empty"),
        ("sub-missing-column.txt", .sub, 1, 26, "missing column 'Subscriber ID'"),
        ("sub-extra-field.txt", .sub, 3, 27, "row has 27 fields, the header has 26"),
        ("sub-non-numeric-price.txt", .sub, 4, 13, "'Customer Price': '9,99' is not a number"),
        ("ss-non-numeric-units.txt", .ss, 2, 8, "'Units': 'three' is not a whole number"),
        ("ss-units-fraction.txt", .ss, 3, 8, "'Units': '1.50' is not a whole number of units"),
        ("ss-proceeds-without-currency.txt", .ss, 2, 14, "empty 'Currency of Proceeds'"),
        ("ss-end-before-begin.txt", .ss, 3, 11, "'End Date' 2025-11-02 is before 'Begin Date' 2025-11-03"),
        ("ss-2010-layout.txt", .ss, 1, 3, "unsupported layout (2009–2011 sales): 'Vendor Identifier' is a column of that layout"),
        ("ssn-bad-decimal.txt", .ssn, 3, 9, "'Customer Price': '59,99' is not a number"),
        ("ssn-negative-count.txt", .ssn, 2, 27, "'Billing Retry': '-1' is not a whole number of at least 0"),
        ("ssn-count-fraction.txt", .ssn, 2, 19, "'Active Standard Price Subscriptions': '120.5' is not a whole number of at least 0"),
        ("ssn-unknown-header.txt", .ssn, 1, 26, "unexpected column 'Marketing Opt-In Subscriptions'; missing 'Marketing Opt-Ins'"),
        ("ssn-wrong-column-count.txt", .ssn, 5, 29, "row has 29 fields, the header has 28"),
        ("ssn-bad-currency.txt", .ssn, 4, 10, "'Customer Currency': 'eur' is not a currency code"),
        ("sev-unknown-event.txt", .sev, 3, 2, "unknown event 'Cancel Renewal' in 'Event', expected one of Subscribe, "),
        ("sev-bad-quantity.txt", .sev, 3, 28, "'Quantity': '4.5' is not a whole number of at least 0"),
        ("sev-zero-quantity.txt", .sev, 6, 28, "'Quantity' is 0; a row counts at least one event"),
        ("sev-wrong-column-count.txt", .sev, 4, 28, "row has 27 fields, the header has 28"),
        ("sev-unknown-header.txt", .sev, 1, 17, "unexpected column 'Consecutive Paid Period'; missing 'Consecutive Paid Periods'"),
        ("sev-bad-cancellation-reason.txt", .sev, 4, 26, "unknown cancellation reason 'Too expensive' in 'Cancellation Reason'"),
        ("sev-bad-date.txt", .sev, 2, 1, "'Event Date': '2025-11-31' is not a date (YYYY-MM-DD)"),
        ("sev-bad-offer-type.txt", .sev, 2, 11, "unknown offer type 'Free Trail' in 'Subscription Offer Type', expected one of Free Trial, Pay As You Go, Pay Up Front or blank"),
        ("ge-unterminated-quote.csv", .ge, 10, 2, "quoted field never closed"),
        ("ge-bad-time.csv", .ge, 3, 3, "'Transaction Time': '13:29:44 AM PDT' is not h:mm:ss AM/PM [zone]"),
        ("ge-unknown-zone.csv", .ge, 3, 3, "unknown zone 'CET'"),
        ("ge-bad-refund-type.csv", .ge, 2, 6, "'Refund Type' is 'Half', expected Full, Partial or empty"),
        ("ge-unknown-transaction-type.csv", .ge, 3, 5, "unknown 'Transaction Type' 'Play Points credit', expected one of Charge, Google fee, Tax, Charge refund, Google fee refund, Tax refund, Charge rebill, Google fee rebill, Tax rebill"),
        ("ge-unknown-product-type.csv", .ge, 5, 9, "unknown 'Product Type' 2, expected 0 (paid app) or 1 (in-app product)"),
        ("ge-stray-quote.csv", .ge, 3, 7, "quote inside an unquoted field"),
        ("ge-duplicate-column.csv", .ge, 1, 27, "duplicate column 'Package ID' (same as column 8)"),
        ("ge-bad-date.csv", .ge, 3, 2, "'Transaction Date': 'Nov 31, 2019' is not a date (Mon D, YYYY)"),
        ("ge-text-after-quote.csv", .ge, 3, 2, "text after a closing quote"),
        ("ge-non-numeric-rate.csv", .ge, 3, 17, "'Currency Conversion Rate': '0,14937' is not a number"),
        ("ge-header-only-semicolons.csv", .ge, 1, 1, "unexpected column 'Desc…"),
        ("ge-cell-too-long.csv", .ge, 3, 7, "cell longer than 4096 bytes (the limit for this report)"),
        ("ge-line-too-long.csv", .ge, 3, 25, "line longer than 65536 bytes (the limit for this report)"),
        ("afr-long-cell.txt", .afr, 2, 13, "cell longer than 4096 bytes"),
        ("sub-long-line.txt", .sub, 3, 20, "line longer than 65536 bytes"),
        ("ss-long-cell.txt", .ss, 2, 5, "cell longer than 4096 bytes"),
        ("ssn-long-cell.txt", .ssn, 3, 2, "cell longer than 4096 bytes"),
        ("pay-long-cell.csv", .pay, 5, 1, "cell longer than 4096 bytes"),
        ("afr-key-file.txt", .afr, 1, 1, "unexpected column '----…---- (27 characters)'"),
        ("sub-token-list.txt", .sub, 1, 1, "unexpected column 'tIDn…Ra2k (148 characters)'"),
        ("gs-charged-mismatch.csv", .gs, 2, 13, "'Charged Amount' 27.980000 is not Item Price + Taxes Collected (27.990000)"),
        ("gs-bad-timestamp.csv", .gs, 2, 3, "'Order Charged Timestamp': '1704112948.5' is not a whole number"),
        ("gs-renamed-column.csv", .gs, 1, 13, "unexpected column 'Charged Amt'; missing 'Charged Amount'"),
        ("gs-missing-field.csv", .gs, 2, 25, "row has 24 fields, the header has 25"),
        ("gs-cell-too-long.csv", .gs, 3, 6, "cell longer than 4096 bytes (the limit for this report)"),
        ("gs-line-too-long.csv", .gs, 4, 19, "line longer than 65536 bytes (the limit for this report)"),
        ("gs-unterminated-quote.csv", .gs, 3, 6, "quoted field never closed"),
        ("gs-unknown-financial-status.csv", .gs, 3, 4, "unknown 'Financial Status' 'Chargeback', expected one of Charged, Refund"),
        ("gz-truncated.txt.gz", .afrGz, 1613, 75, "truncated or damaged gzip data after 196608 bytes"),
        ("gz-truncated-header.txt.gz", .afrGz, 1, 1, "damaged gzip data: incomplete gzip header"),
        ("gz-not-gzip.txt.gz", .afrGz, 1, 1, "not gzip data (no 1F 8B signature)"),
        ("zip-truncated.zip", .geZip, 1, 1, "truncated or damaged zip data after 0 bytes"),
        ("zip-two-csvs.zip", .geZip, 1, 1, "a second file in the zip (after 'earnings_a.csv'); expected exactly one CSV"),
        ("zip-bomb.zip", .geZip, 2, 16_842_366, "archive expands more than 200× its compressed size (zip bomb?)"),
        ("zip-not-csv.zip", .geZip, 1, 1, "the zip's only file is not a .csv"),
    ]

    static func parse(_ kind: Kind, _ bytes: [UInt8], file: String) throws -> Any {
        switch kind {
        case .afr: return try AppleFinancialReportParser.parse(bytes, file: file)
        case .pay: return try ApplePaymentsSummaryParser.parse(bytes, file: file)
        case .sub: return try AppleSubscriberReportParser.parse(bytes, file: file)
        case .ss: return try AppleSummarySalesParser.parse(bytes, file: file)
        case .ssn: return try AppleSubscriptionReportParser.parse(bytes, file: file, reportDate: CalendarDate(year: 2025, month: 11, day: 3))
        case .sev: return try AppleSubscriptionEventParser.parse(bytes, file: file)
        case .ge: return try GoogleEarningsParser.parse(bytes, file: file)
        case .gs: return try GoogleEstimatedSalesParser.parse(bytes, file: file)
        case .afrGz: return try AppleFinancialReportParser.parse(try ReportArchive.gunzip(bytes, file: file), file: file)
        case .geZip:
            let member = try ReportArchive.singleCSV(bytes, file: file)
            return try GoogleEarningsParser.parse(member.bytes, file: file + "/" + member.name)
        }
    }

    @Test(arguments: corpus)
    func rejectedWithPosition(_ entry: (String, Kind, Int, Int, String)) throws {
        let (name, kind, line, column, fragment) = entry
        let bytes = try ReportFixtures.bytes("malformed/" + name)
        let error = try #require(rejection { try Self.parse(kind, bytes, file: name) })
        #expect(error.file == name || error.file.hasPrefix(name + "/"), "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.column == column, "\(error)")
        #expect(error.reason.contains(fragment), "\(error)")
        #expect(error.description.hasPrefix("\(error.file):\(line):\(column): "))
    }

    /// A key or a token list where a report was expected (a misplaced file, a symlink): the rejection quotes a short
    /// masked excerpt, never a line of the file.
    @Test(arguments: [("afr-key-file.txt", Kind.afr), ("sub-token-list.txt", Kind.sub)])
    func aMisplacedSecretFileIsNotEchoed(_ entry: (String, Kind)) throws {
        let bytes = try ReportFixtures.bytes("malformed/" + entry.0)
        let error = try #require(rejection { try Self.parse(entry.1, bytes, file: entry.0) })
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            #expect(!error.description.contains(line), "\(error)")
            #expect(!error.description.contains(line.dropFirst(4).prefix(12)), "\(error)")
        }
        #expect(!error.description.contains("BEGIN"), "\(error)")
    }

    @Test func goodArchivesReadThrough() throws {
        let gz = try ReportArchive.gunzip(try ReportFixtures.bytes("apple/45545510_0914_CH.txt.gz"), file: "45545510_0914_CH.txt.gz")
        #expect(gz == (try ReportFixtures.bytes("apple/45545510_0914_CH.txt")))
        let report = try AppleFinancialReportParser.parse(gz, file: "45545510_0914_CH.txt.gz")
        #expect(report.name?.period == FiscalPeriod(fiscalYear: 2014, period: 12) && report.rows.count == 6)
        let zip = try ReportArchive.singleCSV(try ReportFixtures.bytes("google/earnings_201911_1234567890123-0.zip"), file: "e.zip")
        #expect(zip.name == "earnings_201911_1234567890123-0.csv")
        #expect(zip.bytes == (try ReportFixtures.bytes("google/earnings_201911_1234567890123-0.csv")))
    }

    @Test func tightLimitsRejectAnOrdinaryZip() throws {
        let limits = ArchiveLimits(maxBytes: 1000, maxRatio: 1000, ratioFloor: 1 << 30)
        let bytes = try ReportFixtures.bytes("google/earnings_201911_1234567890123-0.zip")
        let error = try #require(rejection { try ReportArchive.singleCSV(bytes, file: "e.zip", limits: limits) })
        #expect(error.reason.contains("expands beyond 1000 bytes"))
        #expect(error.file == "e.zip/earnings_201911_1234567890123-0.csv")
    }

    @Test func corpusCoversEveryFileInTheFolder() throws {
        let listed = Set(Self.corpus.map(\.0))
        let onDisk = Set(try ReportFixtures.names(in: "malformed"))
        #expect(onDisk == listed)
        #expect(listed.count >= 30)
    }
}

import Testing
@testable import StoreExports

/// Apple Financial Report fixtures shaped like the real files (see Fixtures/README.md).
@Suite struct AppleFinancialReportTests {
    @Test func regionFileWithReturnFirstPromoRowsAndSaleOnlyUnits() throws {
        let file = "45545510_0914_CH.txt"
        let report = try AppleFinancialReportParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(report.rows.count == 6)
        #expect(report.rows[0].saleOrReturn == .return && report.rows[0].quantity == -1)
        #expect(report.rows[0].extendedPartnerShareMicros == -700_000 && report.rows[0].customerPriceMicros == -1_000_000)
        #expect(report.totals == AppleFinancialTotals(rows: 6, amountMicros: 6_300_000, units: 20))
        #expect(report.rows.map(\.quantity) == [-1, 2, 1, 2, 14, 1])
        let promo = try #require(report.rows.first { $0.promoCode == "CR" })
        #expect(promo.saleOrReturn == .sale && promo.partnerShareMicros == 0 && promo.extendedPartnerShareMicros == 0)
        #expect(Set(report.rows.map(\.productTypeIdentifier)) == ["IAY", "1F", "F1", "1"])
        #expect(report.unknownProductTypes.isEmpty)
        #expect(report.rows.contains { $0.title == "Zürich Trails" } && report.rows.contains { $0.title == "日本語タイトル" })
        #expect(report.rows[0].promoCode == "", "a single-space cell reads as empty")
        #expect(report.name?.period == FiscalPeriod(fiscalYear: 2014, period: 12))
        let period = try #require(report.name?.period)
        #expect(AppleFiscalCalendar.dates(of: period) == report.rows[0].startDate...report.rows[0].endDate)
        #expect(report.countrySummary.isEmpty)
    }

    /// A financial report renamed to another month would import into the wrong fiscal period: its rows' dates are
    /// checked against the period the name's MMYY names.
    @Test func rowsOutsideTheFileNamesFiscalPeriodAreRefused() throws {
        let bytes = try ReportFixtures.bytes("apple/45545510_0914_CH.txt")
        #expect(try AppleFinancialReportParser.parse(bytes, file: "45545510_0914_CH.txt").rows.count == 6)
        let error = try #require(rejection { try AppleFinancialReportParser.parse(bytes, file: "45545510_0814_CH.txt") })
        #expect(error.line == 2 && error.column == 1, "\(error)")
        #expect(error.reason.contains("outside FY2014 P11") && error.reason.contains("'0814'"), "\(error)")
    }

    @Test func integerTotalAmount() throws {
        let file = "85000000_0125_JP.txt"
        let report = try AppleFinancialReportParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(report.totals.amountMicros == 179_000_000)
        #expect(report.rows.map(\.extendedPartnerShareMicros) == [119_000_000, 60_000_000])
        let period = try #require(report.name?.period)
        #expect(period == FiscalPeriod(fiscalYear: 2025, period: 4))
        #expect(AppleFiscalCalendar.dates(of: period) == report.rows[0].startDate...report.rows[0].endDate)
    }

    @Test func consolidatedFileWithCountryTableAndSaleOrReturnSpelling() throws {
        let file = "85000000_1125_ZZ.txt"
        let report = try AppleFinancialReportParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(report.name?.region == "ZZ" && report.name?.period == FiscalPeriod(fiscalYear: 2026, period: 2))
        #expect(report.rows.count == 5)
        #expect(Set(report.rows.map(\.partnerShareCurrency)) == ["USD", "EUR"])
        #expect(report.countrySummary.map(\.countryOfSale) == ["US", "MX", "DE", "FR"])
        #expect(report.countrySummary[0].extendedPartnerShareMicros == 13_980_000)
        #expect(report.countrySummary.reduce(0) { $0 + $1.extendedPartnerShareMicros } == report.totals.amountMicros)
    }

    @Test func byteOrderMarkAndCRLFAreAccepted() throws {
        let file = "45545510_0914_CH.txt"
        let plain = try ReportFixtures.bytes("apple/" + file)
        var crlf: [UInt8] = [0xEF, 0xBB, 0xBF]
        for byte in plain { if byte == 0x0A { crlf.append(0x0D) }; crlf.append(byte) }
        let expected = try AppleFinancialReportParser.parse(plain, file: file)
        let converted = try AppleFinancialReportParser.parse(crlf, file: file)
        #expect(converted.rows == expected.rows && converted.totals == expected.totals)
    }

    @Test func unknownProductTypesAreKeptAndReported() throws {
        let file = "45545510_0914_CH.txt"
        let text = String(decoding: try ReportFixtures.bytes("apple/" + file), as: UTF8.self)
            .replacingOccurrences(of: "\t1F\t", with: "\tZZ9\t")
        let report = try AppleFinancialReportParser.parse(Array(text.utf8), file: file)
        #expect(report.unknownProductTypes == ["ZZ9"])
    }
}

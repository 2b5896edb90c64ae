import Testing
@testable import StoreExports

/// The payments summary CSV in its known layouts (see Fixtures/README.md).
@Suite struct ApplePaymentsSummaryTests {
    @Test func paidMonthWithExchangeRatesAndBankLine() throws {
        let summary = try ApplePaymentsSummaryParser.parse(try ReportFixtures.bytes("apple/financial_report.csv"), file: "financial_report.csv")
        #expect(summary.title == "iTunes Connect - Payments and Financial Reports\t(September, 2014)")
        #expect(summary.periodLabel == "September, 2014")
        #expect(summary.rows.map(\.currency) == ["USD", "EUR", "JPY"])
        #expect(summary.rows.map(\.region) == ["Americas", "Euro-Zone", "Japan"])
        #expect(summary.rows[0].unitsSold == 1204, "thousands separator")
        let japan = summary.rows[2]
        #expect(japan.earnedMicros == 179_000_000 && japan.withholdingTaxMicros == -37_000_000 && japan.totalOwedMicros == 142_000_000)
        #expect(japan.exchangeRate == ExactDecimal(unscaled: 817, scale: 5))
        #expect(japan.proceedsMicros == 1_160_000 && japan.bankAccountCurrency == "EUR")
        #expect(summary.bankTotal == ApplePaymentsBankTotal(line: 8, column: 11, amountMicros: 234_580_000, currency: "EUR"))
        #expect(summary.paidTo == "Paid to EXAMPLE BANK -****1299")
    }

    @Test func balanceVariantWithoutExchangeRate() throws {
        let summary = try ApplePaymentsSummaryParser.parse(try ReportFixtures.bytes("apple/financial_report_balance.csv"), file: "b.csv")
        #expect(summary.rows.map(\.balanceMicros) == [20_970_000, 8_000_000])
        #expect(summary.rows.allSatisfy { $0.exchangeRate == nil && $0.proceedsMicros == nil })
        #expect(summary.bankTotal == nil)
    }

    @Test func unpaidMonthInFrenchWithThousandsSeparators() throws {
        let summary = try ApplePaymentsSummaryParser.parse(try ReportFixtures.bytes("apple/financial_report_unpaid_fr.csv"), file: "fr.csv")
        #expect(summary.rows.map(\.region) == ["Amériques", "Zone euro"])
        #expect(summary.rows[0].unitsSold == 2310 && summary.rows[0].earnedMicros == 12_345_670_000)
        #expect(summary.rows[0].withholdingTaxMicros == -1_234_570_000 && summary.rows[0].totalOwedMicros == 11_111_100_000)
        #expect(summary.rows.allSatisfy { $0.exchangeRate == nil && $0.proceedsMicros == nil && $0.bankAccountCurrency == nil })
        #expect(summary.periodLabel == "novembre, 2025")
    }

    @Test func countryOrRegionNineColumnLayout() throws {
        let summary = try ApplePaymentsSummaryParser.parse(try ReportFixtures.bytes("apple/financial_report_country_or_region.csv"), file: "mx.csv")
        let mexico = try #require(summary.rows.first)
        #expect(mexico.region == "Mexico" && mexico.currency == "MXN" && mexico.unitsSold == 19)
        #expect(mexico.preTaxSubtotalMicros == nil && mexico.adjustmentsMicros == 479_920_000 && mexico.proceedsMicros == 3_479_640_000)
    }
}

import Testing
@testable import StoreExports

/// Google earnings and estimated sales CSVs (see Fixtures/README.md).
@Suite struct GoogleReportTests {
    @Test func earningsWithRefundsRebillsPartialRefundsAndSeveralTaxRows() throws {
        let file = "earnings_201911_1234567890123-0.csv"
        let rows = try GoogleEarningsParser.parse(try ReportFixtures.bytes("google/" + file), file: file)
        #expect(rows.count == 14)
        let first = try #require(rows.first { $0.orderID == "GPA.3302-2312-6140-38722..2" && $0.transactionType == .charge })
        #expect(first.amountBuyerMicros == 22_960_000 && first.amountMerchantMicros == 3_430_000)
        #expect(first.currencyConversionRate == ExactDecimal(unscaled: 14937, scale: 5))
        #expect(first.transactionDate == (try ReportFixtures.date("2019-11-01")))
        #expect(first.transactionEpochSeconds == 1_572_604_184 && first.transactionZone == "PDT")
        #expect(first.feeDescription == "SUBSCRIPTIONS" && first.hardware == "a15" && first.buyerPostalCode == "6855")
        let taxes = rows.filter { $0.orderID == first.orderID && $0.transactionType == .tax }
        #expect(taxes.map(\.amountBuyerMicros) == [-3_000_000, -1_590_000])
        let partial = rows.filter { $0.refundType == .partial }
        #expect(partial.map(\.transactionType) == [.chargeRefund, .googleFeeRefund])
        #expect(rows[0].transactionType == .chargeRefund, "rows are not sorted: a refund comes first")
        #expect(rows[0].buyerState == "九龍" && rows[0].productTitle == "Premium 12 meses (CantoApp)")
        #expect(rows[0].transactionEpochSeconds == 1_572_850_930, "11:02:10 PM PST on Nov 3 is 07:02:10Z on Nov 4")
        #expect(rows.filter { [.chargeRebill, .googleFeeRebill, .taxRebill].contains($0.transactionType) }.count == 3)
        #expect(rows.filter { $0.refundType == .full }.count == 3)
        #expect(rows.first { $0.transactionType == .charge && $0.orderID.hasPrefix("GPA.3371") }?.promotionID == "PROMO-7731")
    }

    @Test func newerEarningsVariantWithBOMCRLFAndMultilineQuotedTitle() throws {
        let file = "earnings_202501_1234567890123-1.csv"
        let bytes = try ReportFixtures.bytes("google/" + file)
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        let rows = try GoogleEarningsParser.parse(bytes, file: file)
        #expect(rows.count == 2)
        #expect(rows[0].productTitle == "Pro, \"Plus\"\nyearly (Café)")
        #expect(rows[0].productID == "member.android.cableshop" && rows[0].salesChannel == "Play Store")
        #expect(rows[0].basePlanID == "monthly" && rows[0].buyerPostalCode == "94043")
        #expect(rows[0].transactionZone == "UTC" && rows[0].transactionEpochSeconds == 1_738_367_999)
        #expect(rows[1].line == 4, "a record's line counts the newline inside the quoted title")
    }

    @Test func oldEarningsLayoutWithoutBasePlanColumns() throws {
        let file = "earnings_201604_1234567890123-0.csv"
        let rows = try GoogleEarningsParser.parse(try ReportFixtures.bytes("google/" + file), file: file)
        #expect(rows.count == 1 && rows[0].basePlanID == "" && rows[0].amountBuyerMicros == 990_000)
    }

    @Test func transactionTypesAreOnlyTheDocumentedOnes() throws {
        #expect(GoogleTransactionType(raw: "Chargeback") == nil)
        #expect(GoogleTransactionType(raw: "charge") == nil, "spelling is exact")
        for name in GoogleTransactionType.accepted { #expect(GoogleTransactionType(raw: name)?.raw == name) }
        #expect(GoogleTransactionType.accepted.count == 9)
    }

    @Test func estimatedSales2024WithRefundRow() throws {
        let file = "salesreport_202401.csv"
        let rows = try GoogleEstimatedSalesParser.parse(try ReportFixtures.bytes("google/" + file), file: file)
        #expect(rows.count == 3)
        #expect(rows[0].orderNumber == "GPA.3369-1538-8116-43056" && rows[0].orderChargedEpochSeconds == 1_704_112_948)
        #expect(rows[0].itemPriceMicros == 23_330_000 && rows[0].taxesCollectedMicros == 4_660_000 && rows[0].chargedAmountMicros == 27_990_000)
        #expect(rows[1].isRefund && rows[1].orderNumber == rows[0].orderNumber && rows[1].chargedAmountMicros == -27_990_000)
        #expect(rows[2].productTitle == "プレミアム, 月額 (ExampleApp)" && rows[2].cityOfBuyer == "新宿区")
        #expect(rows[0].extra["First USD 1M Eligible"] == "Yes" && rows[0].basePlanID == "p1y")
    }

    @Test func estimatedSalesLaterHeader() throws {
        let file = "salesreport_202511.csv"
        let rows = try GoogleEstimatedSalesParser.parse(try ReportFixtures.bytes("google/" + file), file: file)
        #expect(rows.first?.productID == "com.itlogy.awardwallet" && rows.first?.basePlanID == "p1y")
        #expect(rows.first?.extra["Sales Channel"] == "Play Store")
    }
}

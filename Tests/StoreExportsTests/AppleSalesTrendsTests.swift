import Testing
@testable import StoreExports

/// Subscriber and Summary Sales reports (see Fixtures/README.md).
@Suite struct AppleSalesTrendsTests {
    @Test func subscriberReportWithRefundSingleSpacesAndNoFinalNewline() throws {
        let file = "Subscriber_85000000_20251103.txt"
        let bytes = try ReportFixtures.bytes("apple/" + file)
        #expect(bytes.last != 0x0A)
        let report = try AppleSubscriberReportParser.parse(bytes, file: file)
        #expect(report.rows.count == 4 && report.zone == "America/Los_Angeles")
        let refund = report.rows[1]
        #expect(refund.isRefund && refund.customerPriceMicros == -9_990_000 && refund.developerProceedsMicros == -6_990_000)
        #expect(refund.purchaseDate == (try ReportFixtures.date("2025-10-28")))
        #expect(report.rows[0].purchaseDate == nil && !report.rows[0].isRefund && report.rows[0].promotionalOfferID == "")
        #expect(report.rows[3].subscriptionOfferName == "初月無料" && report.rows[3].appName == "Café Trails")
        #expect(report.rows[2].proceedsReason == "Rate After One Year")
    }

    @Test func olderSubscriberReportNamesTheOfferNamePromotionalOfferName() throws {
        let file = "Subscriber_85000000_20190405.txt"
        let report = try AppleSubscriberReportParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        let row = try #require(report.rows.first)
        #expect(row.subscriptionOfferName == "winback50" && row.promotionalOfferID == "" && row.client == "")
    }

    /// The 1_3 layout carries both `Promotional Offer Name` (the offer's name) and `Promotional Offer ID`; the
    /// landed parser took the name for another spelling of the ID and refused every such file at its header.
    @Test func subscriberReport13LayoutWithBothOfferColumnsAndDecimalsWithoutLeadingZero() throws {
        let file = "Subscriber_85000000_20200612.txt"
        let report = try AppleSubscriberReportParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(report.rows.count == 2)
        #expect(report.rows[0].subscriptionOfferName == "Summer Winback" && report.rows[0].promotionalOfferID == "winback50")
        #expect(report.rows[0].client == "App Store" && report.rows[0].customerPriceMicros == 4_990_000)
        let refund = report.rows[1]
        #expect(refund.customerPriceMicros == 990_000 && refund.developerProceedsMicros == 700_000 && refund.isRefund)
        let purchased = try ReportFixtures.date("2020-05-30")
        #expect(refund.subscriptionOfferName == "" && refund.purchaseDate == purchased)
    }

    /// Summary Sales as real files have it: `Units` written as a decimal, a free row whose proceeds currency is blank.
    @Test func summarySalesDecimalUnitsAndFreeRowWithoutProceedsCurrency() throws {
        let file = "S_D_85000000_20201005.txt"
        let rows = try AppleSummarySalesParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(rows.map(\.units) == [12, 40])
        #expect(rows[0].developerProceedsMicros == 700_000 && rows[0].customerPriceMicros == 990_000)
        #expect(rows[0].currencyOfProceeds == "USD")
        #expect(rows[1].currencyOfProceeds == nil && rows[1].developerProceedsMicros == 0 && rows[1].productTypeIdentifier == "1")
    }

    @Test func summarySalesReport() throws {
        let file = "S_D_85000000_20251103.txt"
        let rows = try AppleSummarySalesParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(rows.map(\.units) == [-1, 3, 1, 2])
        #expect(rows[0].developerProceedsMicros == 6_990_000 && rows[0].subscription == "Renewal")
        #expect(rows[2].promoCode == "CR" && rows[2].customerPriceMicros == 0)
        #expect(rows[3].title == "Zürich Trails" && rows[3].extra["Category"] == "Productivity")
        #expect(rows[0].beginDate == (try ReportFixtures.date("2025-11-03")))
    }

    @Test func pacificDayBoundaries() throws {
        // 2025-11-03 07:59:59Z is 23:59:59 PST on Nov 2; 2025-07-01 06:59:59Z is 23:59:59 PDT on Jun 30.
        #expect(PacificTime.day(ofUTCSeconds: 1_762_156_799) == (try ReportFixtures.date("2025-11-02")))
        #expect(PacificTime.day(ofUTCSeconds: 1_762_156_800) == (try ReportFixtures.date("2025-11-03")))
        #expect(PacificTime.day(ofUTCSeconds: 1_751_353_199) == (try ReportFixtures.date("2025-06-30")))
        #expect(PacificTime.day(ofUTCSeconds: 1_751_353_200) == (try ReportFixtures.date("2025-07-01")))
    }
}

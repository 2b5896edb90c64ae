import Testing
@testable import StoreExports

/// Apple's Subscription and Subscription Event reports, each accepted layout of version 1_3 (see Fixtures/README.md):
/// every row, count and amount equal to the fixture's.
@Suite struct AppleSubscriptionReportsTests {
    @Test func subscriptionReportRealLayoutWithPromotionalOfferName() throws {
        let file = "Subscription_85000000_20251103.txt"
        let bytes = try ReportFixtures.bytes("apple/" + file)
        #expect(bytes.last != 0x0A)
        let report = try AppleSubscriptionReportParser.parse(bytes, file: file)
        #expect(report.reportDate == (try ReportFixtures.date("2025-11-03")))
        #expect(report.rows.count == 4)
        #expect(report.rows.map(\.customerPriceMicros) == [9_990_000, 59_990_000, 9_990_000, 990_000])
        #expect(report.rows.map(\.developerProceedsMicros) == [6_990_000, 50_990_000, 7_140_000, 700_000])
        #expect(report.rows.map(\.customerCurrency) == ["USD", "USD", "EUR", "GBP"])
        #expect(report.rows.map { $0.count("Active Standard Price Subscriptions") } == [120, 40, 10, 5])
        #expect(report.rows.map { $0.count("Active Free Trial Introductory Offer Subscriptions") } == [15, 0, 0, 2])
        #expect(report.rows[0].count("Billing Retry") == 3 && report.rows[0].count("Grace Period") == 1)
        #expect(report.rows[2].subscriptionOfferName == "Winback Herbst" && report.rows[2].promotionalOfferID == "winback50")
        #expect(report.rows[2].count("Pay As You Go Promotional Offer Subscriptions") == 2)
        #expect(report.rows[1].proceedsReason == "Rate After One Year" && report.rows[1].state == "")
        #expect(report.rows[0].appName == "Café Trails" && report.rows[0].state == "CA")
        // The real layout has no offer-code counts and no Subscribers column.
        #expect(report.rows.allSatisfy { $0.count("Free Trial Offer Code Subscriptions") == nil && $0.count("Subscribers") == nil })
    }

    @Test func subscriptionReportDocumentedLayoutWithOfferCodesAndSubscribers() throws {
        let file = "Subscription_85000000_20260315_V1_3.txt"
        let report = try AppleSubscriptionReportParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        let day = try ReportFixtures.date("2026-03-15")
        #expect(report.reportDate == day && report.rows.count == 3)
        #expect(report.rows.map(\.customerPriceMicros) == [9_990_000, 59_990_000, 13_990_000])
        #expect(report.rows.map(\.developerProceedsMicros) == [6_990_000, 50_990_000, 9_790_000])
        #expect(report.rows[0].subscriptionOfferName == "SPRING26" && report.rows[0].count("Free Trial Offer Code Subscriptions") == 4)
        #expect(report.rows.map { $0.count("Subscribers") } == [152, 45, nil])
        #expect(report.rows[1].preservedPricing == "Yes" && report.rows[2].country == "CA")
    }

    @Test func subscriptionReportNeedsItsDay() throws {
        let bytes = try ReportFixtures.bytes("apple/Subscription_85000000_20251103.txt")
        let error = try #require(rejection { try AppleSubscriptionReportParser.parse(bytes, file: "Subscription_85000000.txt") })
        #expect(error.line == 1 && error.column == 1 && error.reason.contains("carries no report day"))
        #expect(AppleTabReport.reportDate(fileName: "Subscription_85000000_20260230.txt") == nil)
        #expect(AppleTabReport.reportDate(fileName: "x/Subscription_Event_85000000_20251103_V1_3.txt.gz")
                == (try ReportFixtures.date("2025-11-03")))
    }

    @Test func subscriptionEventReportRealLayout() throws {
        let file = "Subscription_Event_85000000_20251103.txt"
        let report = try AppleSubscriptionEventParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(report.rows.map(\.event) == ["Start Introductory Offer", "Paid Subscription from Introductory Offer", "Cancel",
                                             "Renew", "Reactivate", "Upgrade"])
        #expect(report.rows.map(\.quantity) == [7, 4, 2, 1, 1, 1])
        #expect(report.rows.allSatisfy { $0.eventDate == CalendarDate(year: 2025, month: 11, day: 3) })
        let trial = report.rows[0]
        #expect(trial.subscriptionOfferType == "Free Trial" && trial.subscriptionOfferDuration == "1 Week")
        let started = try ReportFixtures.date("2025-11-03")
        #expect(trial.consecutivePaidPeriods == nil && trial.originalStartDate == started)
        #expect(report.rows[1].consecutivePaidPeriods == 1)
        let cancel = report.rows[2]
        #expect(cancel.cancellationReason == "Canceled" && cancel.daysBeforeCanceling == 75 && cancel.state == "")
        #expect(report.rows[3].preservedPricing && report.rows[3].proceedsReason == "Rate After One Year")
        #expect(report.rows[4].daysCanceled == 12 && report.rows[4].daysBeforeCanceling == nil)
        let upgrade = report.rows[5]
        #expect(upgrade.previousSubscriptionName == "Trails Pro Monthly" && upgrade.previousSubscriptionAppleID == "1500000001")
        #expect(upgrade.subscriptionOfferName == "Winback Herbst" && upgrade.promotionalOfferID == "winback50")
    }

    @Test func subscriptionEventReportDocumentedLayoutCRLFAndApplesCapitalisation() throws {
        let file = "Subscription_Event_85000000_20260315_V1_3.txt"
        let report = try AppleSubscriptionEventParser.parse(try ReportFixtures.bytes("apple/" + file), file: file)
        #expect(report.rows.map(\.quantity) == [3, 2, 5, 6, 1])
        #expect(report.rows[0].event == "Start Offer Code" && report.rows[0].subscriptionOfferName == "SPRING26")
        #expect(report.rows[1].marketingOptIn && report.rows[1].marketingOptInDuration == "1 Month")
        #expect(report.rows[2].cancellationReason == "Billing Issue")
        #expect(report.rows[4].event == "Crossgrade From Introductory Offer" && report.rows[4].country == "AU")
    }

    @Test func everyAcceptedValueListIsFreeOfDuplicates() {
        for list in [AppleSubscriptionEventValues.events, AppleSubscriptionEventValues.cancellationReasons,
                     AppleSubscriptionEventValues.offerTypes] {
            #expect(Set(list.map { $0.lowercased() }).count == list.count)
        }
    }

    @Test func fileNamesDenoteTheirKinds() {
        #expect(StoreReportKind(fileName: "Subscription_85000000_20251103.txt") == .appleSubscription)
        #expect(StoreReportKind(fileName: "Subscription_85012345_20261130_V1_3.txt.gz") == .appleSubscription)
        #expect(StoreReportKind(fileName: "Subscription_Event_85000000_20251103.txt") == .appleSubscriptionEvent)
        #expect(StoreReportKind(fileName: "Subscriber_85000000_20251103.txt") == .appleSubscriber)
        #expect(StoreReportKind(fileName: "Subscription_Offer_Code_85000000_20251103.txt") == nil)
    }
}

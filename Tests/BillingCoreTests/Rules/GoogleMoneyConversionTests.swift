import Foundation
import Testing
@testable import BillingCore

/// A Google Money that does not convert exactly (inexact nanos, a currency code that is not ISO 4217 shaped) makes
/// the projection fail with `ProjectionError.invalidAmount` naming the problem; it never becomes a nil amount.
@Suite struct GoogleMoneyConversionTests {
    static let now = Date(timeIntervalSince1970: 1_740_934_000) // 2025-03-02, after the fixture's start

    /// SIGNUP_VANITY_CODE (a `subscriptionsv2.get` body; provenance in its `.md`) changed by `edit`.
    static func state(_ edit: (inout [String: Any]) throws -> Void) throws -> GoogleStoreState {
        var body = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("google/requery/SIGNUP_VANITY_CODE.json")) as? [String: Any])
        try edit(&body)
        let raw = try JSONSerialization.data(withJSONObject: body)
        return GoogleStoreState(purchaseToken: TestData.googleToken, purchase: try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: raw),
                                rawPayload: raw)
    }

    /// Sets the recurring price of line item `index`.
    static func price(_ body: inout [String: Any], item index: Int, _ price: [String: Any]) throws {
        var items = try #require(body["lineItems"] as? [[String: Any]])
        var plan = try #require(items[index]["autoRenewingPlan"] as? [String: Any])
        plan["recurringPrice"] = price
        items[index]["autoRenewingPlan"] = plan
        body["lineItems"] = items
    }

    @Test func theUnchangedAnswerProjectsItsPrice() throws {
        let outcome = try GoogleRequeryFixtures.project(try Self.state { _ in }, current: nil, now: Self.now)
        #expect(outcome.transactions.first { $0.eventType == .purchased }?.amount == TestData.usd999)
    }

    @Test func aLowercaseCurrencyFailsTheProjection() throws {
        let state = try Self.state { try Self.price(&$0, item: 0, ["currencyCode": "usd", "units": "9", "nanos": 990_000_000]) }
        #expect(throws: ProjectionError.invalidAmount(.invalidCurrencyCode("usd"))) {
            try GoogleRequeryFixtures.project(state, current: nil, now: Self.now)
        }
    }

    @Test func inexactNanosFailTheProjection() throws {
        let state = try Self.state { try Self.price(&$0, item: 0, ["currencyCode": "USD", "units": "9", "nanos": 990_000_001]) }
        #expect(throws: ProjectionError.invalidAmount(.inexactNanos(990_000_001))) {
            try GoogleRequeryFixtures.project(state, current: nil, now: Self.now)
        }
    }

    @Test func aSecondLineItemWithABadPriceFailsTheProjectionInsteadOfANilAmount() throws {
        let state = try Self.state { body in
            var items = try #require(body["lineItems"] as? [[String: Any]])
            var addOn = items[0]
            addOn["productId"] = "storage_addon"
            addOn["expiryTime"] = "2025-03-20T16:40:09.331Z"
            addOn["latestSuccessfulOrderId"] = "GPA.3376-6603-2291-45509"
            addOn["signupPromotion"] = nil
            items.append(addOn)
            body["lineItems"] = items
            try Self.price(&body, item: 1, ["currencyCode": "EUR", "units": "1", "nanos": 500_000_001])
        }
        #expect(throws: ProjectionError.invalidAmount(.inexactNanos(500_000_001))) {
            try GoogleRequeryFixtures.project(state, current: nil, now: Self.now)
        }
    }

    @Test func currencyCodesMustBeThreeCapitalLetters() throws {
        #expect(try GoogleMoney(currencyCode: "JPY", units: "1200").money() == Money(micros: 1_200_000_000, currencyCode: "JPY"))
        for code in ["usd", "US", "USDX", "", "U$D", "ÜSD"] {
            #expect(throws: MoneyError.invalidCurrencyCode(code)) { try GoogleMoney(currencyCode: code, units: "1").money() }
        }
    }
}

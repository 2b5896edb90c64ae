import Foundation
import Testing
@testable import BillingCore

@Suite("Price changes")
struct PriceChangeTests {
    static let usd1299 = Money(micros: 12_990_000, currencyCode: "USD")

    static func apple(_ path: String, current: SubscriptionSnapshot, edit: (inout AppleStoreState) -> Void = { _ in })
        throws -> ProjectionOutcome {
        var state = try Fixtures.apple(path)
        edit(&state)
        let at = try #require(state.notification?.signedDate?.date).addingTimeInterval(60)
        return try Projection.project(current: current, storeState: .apple(state), trigger: TestData.webhook(at: at),
                                      resolved: TestData.appleRefs())
    }

    static func google(_ path: String, current: SubscriptionSnapshot?, edit: (inout SubscriptionPurchaseLineItem) -> Void)
        throws -> ProjectionOutcome {
        var loaded = try Fixtures.google(path)
        if var item = loaded.state.purchase?.lineItems?.first {
            edit(&item)
            loaded.state.purchase?.lineItems = [item]
        }
        return try Projection.project(current: current, storeState: .google(loaded.state),
                                      trigger: TestData.webhook(at: loaded.eventTime.addingTimeInterval(60)),
                                      resolved: TestData.googleRefs())
    }

    static func details(mode: String, state: String, units: String, nanos: Int32) -> SubscriptionItemPriceChangeDetails {
        SubscriptionItemPriceChangeDetails(newPrice: GoogleMoney(currencyCode: "USD", units: units, nanos: nanos),
                                           rawPriceChangeMode: mode, rawPriceChangeState: state,
                                           expectedNewPriceChargeTime: try? RFC3339Timestamp("2025-04-01T09:00:00.412Z"))
    }

    @Test("Apple PRICE_INCREASE PENDING → ACCEPTED → renewal at the new price → APPLIED; snapshot moves only then")
    func appleLifecycle() throws {
        let pending = try Self.apple("apple/PRICE_INCREASE_PENDING.json", current: TestData.appleSnapshot(.active))
        let change = try #require(pending.priceChange)
        #expect(change.state == .pending && change.mode == .priceIncrease)
        #expect(change.oldAmountMicros == 9_990_000 && change.newAmountMicros == 12_990_000)
        #expect(change.expectedChargeAt == Date(timeIntervalSince1970: 1_743_501_600))
        #expect(pending.subscription.currentPrice == TestData.usd999)
        #expect(pending.entitlement.isActive && pending.status == .active)

        let accepted = try Self.apple("apple/PRICE_INCREASE_ACCEPTED.json", current: pending.subscription)
        #expect(accepted.priceChange?.state == .accepted)
        #expect(accepted.subscription.openPriceChange?.state == .accepted)
        #expect(accepted.subscription.currentPrice == TestData.usd999)

        let renewed = try Self.apple("apple/DID_RENEW.json", current: accepted.subscription) { state in
            state.transaction.price = 12_990
            state.renewalInfo?.renewalPrice = 12_990
        }
        #expect(renewed.priceChange?.state == .applied)
        #expect(renewed.priceChange?.effectiveAt == Date(timeIntervalSince1970: 1_743_501_600))
        #expect(renewed.subscription.currentPrice == Self.usd1299)
        #expect(renewed.subscription.openPriceChange == nil)
        #expect(renewed.transactions.contains { $0.eventType == .priceChanged && $0.amount == Self.usd1299 })
    }

    @Test("Apple EXPIRED·PRICE_INCREASE closes the open change as CANCELED and is price-change churn")
    func appleExpiredPriceIncrease() throws {
        let pending = try Self.apple("apple/PRICE_INCREASE_PENDING.json", current: TestData.appleSnapshot(.active))
        let expired = try Self.apple("apple/EXPIRED_PRICE_INCREASE.json", current: pending.subscription)
        #expect(expired.status == .expired)
        #expect(expired.churnReason == .priceIncreaseNotConsented)
        #expect(expired.priceChange?.state == .canceled)
        #expect(expired.subscription.openPriceChange == nil)
        let row = try #require(expired.transactions.first { $0.eventType == .expired })
        #expect(row.churnReason == .priceIncreaseNotConsented)
        let voluntary = try TestData.projectApple("apple/EXPIRED_VOLUNTARY.json", current: TestData.appleSnapshot(.active))
        #expect(voluntary.churnReason == .voluntary)
    }

    @Test("Google opt-in increase: OUTSTANDING → PENDING, CONFIRMED → ACCEPTED, price snapshot unchanged")
    func googleOptIn() throws {
        let pending = try TestData.projectGoogle("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: TestData.googleSnapshot(.active))
        #expect(pending.priceChange?.state == .pending)
        #expect(pending.priceChange?.mode == .priceIncrease)
        #expect(pending.subscription.currentPrice == TestData.usd999)
        let accepted = try Self.google("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: pending.subscription) { item in
            item.autoRenewingPlan?.priceChangeDetails?.rawPriceChangeState = "CONFIRMED"
        }
        #expect(accepted.eventType == .priceChangeAccepted)
        #expect(accepted.priceChange?.state == .accepted)
        #expect(accepted.subscription.currentPrice == TestData.usd999)
        #expect(accepted.entitlement.isActive)
    }

    @Test("Google opt-in not accepted: the cancellation is price-change churn and the change is CANCELED")
    func googleOptInNotAccepted() throws {
        let pending = try TestData.projectGoogle("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: TestData.googleSnapshot(.active))
        let canceled = try Self.google("google/03_SUBSCRIPTION_CANCELED.json", current: pending.subscription) { item in
            item.autoRenewingPlan?.priceChangeDetails = Self.details(mode: "PRICE_INCREASE", state: "OUTSTANDING", units: "12",
                                                                     nanos: 990_000_000)
        }
        #expect(canceled.status == .canceled)
        #expect(canceled.churnReason == .priceIncreaseNotConsented)
        #expect(canceled.priceChange?.state == .canceled)
        #expect(canceled.subscription.openPriceChange == nil)
    }

    @Test("Google opt-out increase and decrease are recorded with their mode; the price moves only on renewal")
    func googleOptOutAndDecrease() throws {
        let optOut = try Self.google("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: TestData.googleSnapshot(.active)) { item in
            item.autoRenewingPlan?.priceChangeDetails = Self.details(mode: "OPT_OUT_PRICE_INCREASE", state: "CONFIRMED",
                                                                     units: "11", nanos: 490_000_000)
        }
        #expect(optOut.priceChange?.mode == .optOutPriceIncrease && optOut.priceChange?.state == .accepted)
        #expect(optOut.subscription.currentPrice == TestData.usd999)

        let decrease = try Self.google("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: TestData.googleSnapshot(.active)) { item in
            item.autoRenewingPlan?.priceChangeDetails = Self.details(mode: "PRICE_DECREASE", state: "CONFIRMED", units: "7", nanos: 990_000_000)
        }
        #expect(decrease.priceChange?.mode == .priceDecrease)
        #expect(decrease.subscription.currentPrice == TestData.usd999)
        let renewed = try Self.google("google/02_SUBSCRIPTION_RENEWED.json", current: decrease.subscription) { item in
            item.autoRenewingPlan?.recurringPrice = GoogleMoney(currencyCode: "USD", units: "7", nanos: 990_000_000)
            var applied = Self.details(mode: "PRICE_DECREASE", state: "APPLIED", units: "7", nanos: 990_000_000)
            applied.expectedNewPriceChargeTime = nil
            item.autoRenewingPlan?.priceChangeDetails = applied
        }
        #expect(renewed.subscription.currentPrice == Money(micros: 7_990_000, currencyCode: "USD"))
        #expect(renewed.priceChange?.state == .applied)
        #expect(renewed.priceChange?.oldAmountMicros == 9_990_000)
        #expect(renewed.subscription.openPriceChange == nil)
        // Google keeps APPLIED details forever: a later repeat does not insert another row.
        let repeatRenewal = try Self.google("google/02_SUBSCRIPTION_RENEWED.json", current: renewed.subscription) { item in
            item.autoRenewingPlan?.recurringPrice = GoogleMoney(currencyCode: "USD", units: "7", nanos: 990_000_000)
            item.autoRenewingPlan?.priceChangeDetails = Self.details(mode: "PRICE_DECREASE", state: "APPLIED", units: "7", nanos: 990_000_000)
        }
        #expect(repeatRenewal.priceChange == nil)
    }

    @Test("At most one open price change: a second notice updates the open change")
    func oneOpenChange() throws {
        let first = try TestData.projectGoogle("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: TestData.googleSnapshot(.active))
        let second = try Self.google("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: first.subscription) { item in
            item.autoRenewingPlan?.priceChangeDetails = Self.details(mode: "PRICE_INCREASE", state: "OUTSTANDING", units: "13", nanos: 490_000_000)
        }
        #expect(second.subscription.openPriceChange?.newAmountMicros == 13_490_000)
        #expect(second.priceChange?.state == .pending)
    }
}

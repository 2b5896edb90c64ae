import Foundation
import Testing
@testable import BillingCore

/// Answers without `lineItems[].latestSuccessfulOrderId`: the order comes from `latestOrderId`.
@Suite("Google: order inferred from latestOrderId")
struct GoogleOrderInferenceTests {
    static let token = TestData.googleToken
    static let order58 = "GPA.3367-4410-2230-98126..58"

    @Test("A 58th renewal without latestSuccessfulOrderId is keyed by its order and starts its own period")
    func renewal58() throws {
        let state = try GoogleRequeryFixtures.state("ACTIVE_RENEWAL_58_NO_LSOI")
        let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: TestData.day(0))
        let charge = try #require(outcome.transactions.first)
        #expect(outcome.transactionKeys == ["GOOGLE:\(Self.token):\(Self.order58)"])
        #expect(charge.eventType == .renewed)
        #expect(charge.orderId == Self.order58)
        let periodStart = try GoogleRequeryFixtures.instant("2025-02-27T08:12:44.310Z")
        #expect(charge.effectiveAt == periodStart)
        #expect(outcome.subscription.currentPeriodStartAt == periodStart)
        #expect(outcome.entitlement.validFrom == periodStart)
        #expect(outcome.subscription.acknowledgementStatus == .acknowledged)
    }

    @Test("The same charge gets one key whichever answer (with or without the field) describes it first")
    func sameKeyEitherWay() throws {
        let without = try GoogleRequeryFixtures.state("ACTIVE_RENEWAL_58_NO_LSOI")
        var with = without
        with.purchase?.lineItems?[0].latestSuccessfulOrderId = Self.order58
        let now = TestData.day(0)
        for (first, second) in [(without, with), (with, without)] {
            let one = try GoogleRequeryFixtures.project(first, current: nil, now: now)
            let two = try GoogleRequeryFixtures.project(second, current: one.subscription, now: now.addingTimeInterval(60))
            #expect(one.transactionKeys == ["GOOGLE:\(Self.token):\(Self.order58)"])
            #expect(two.transactions.allSatisfy { one.transactionKeys.contains($0.transactionKey) })
            #expect(two.subscription.comparable == one.subscription.comparable)
        }
        let rowWithout = try #require(try GoogleRequeryFixtures.project(without, current: nil, now: now).transactions.first)
        let rowWith = try #require(try GoogleRequeryFixtures.project(with, current: nil, now: now).transactions.first)
        #expect(rowWithout == rowWith)
    }

    @Test("On hold the latest order is the declined renewal: the last paid one is its predecessor")
    func onHoldUsesPredecessor() throws {
        let state = try GoogleRequeryFixtures.state("ON_HOLD_NO_LSOI")
        let purchase = try #require(state.purchase)
        let item = try #require(purchase.lineItems?.first)
        #expect(GoogleSuccessfulOrder.of(item, in: purchase)?.text == "GPA.3355-0918-7764-20931..11")
        var expiredAfterHold = purchase
        expiredAfterHold.rawSubscriptionState = "SUBSCRIPTION_STATE_EXPIRED"
        expiredAfterHold.canceledStateContext = CanceledStateContext(systemInitiatedCancellation: PresenceMarker())
        #expect(GoogleSuccessfulOrder.of(item, in: expiredAfterHold)?.text == "GPA.3355-0918-7764-20931..11")
        var firstRenewalDeclined = purchase
        firstRenewalDeclined.latestOrderId = "GPA.3355-0918-7764-20931..0"
        #expect(GoogleSuccessfulOrder.of(item, in: firstRenewalDeclined)?.text == "GPA.3355-0918-7764-20931")
    }

    @Test("No order is inferred while unpaid, or for a multi-item purchase")
    func noInference() throws {
        let state = try GoogleRequeryFixtures.state("ACTIVE_RENEWAL_58_NO_LSOI")
        let purchase = try #require(state.purchase)
        let item = try #require(purchase.lineItems?.first)
        #expect(GoogleSuccessfulOrder.of(item, in: purchase)?.renewal == 58)
        for unpaid in ["SUBSCRIPTION_STATE_PENDING", "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"] {
            var pending = purchase
            pending.rawSubscriptionState = unpaid
            #expect(GoogleSuccessfulOrder.of(item, in: pending) == nil)
        }
        var twoItems = purchase
        twoItems.lineItems = [item, item]
        #expect(GoogleSuccessfulOrder.of(item, in: twoItems) == nil)
        var explicit = item
        explicit.latestSuccessfulOrderId = "GPA.1234-5678-9012-34567..3"
        #expect(GoogleSuccessfulOrder.of(explicit, in: twoItems)?.text == "GPA.1234-5678-9012-34567..3")
    }

    @Test("Order IDs parse into signup order and renewal index")
    func orderIdParsing() {
        #expect(GoogleOrderId("GPA.1234-5678-9012-34567..58") == GoogleOrderId(base: "GPA.1234-5678-9012-34567", renewal: 58))
        #expect(GoogleOrderId("GPA.1234-5678-9012-34567")?.isRenewal == false)
        #expect(GoogleOrderId("GPA.1234-5678-9012-34567..x")?.text == "GPA.1234-5678-9012-34567..x")
        #expect(GoogleOrderId("GPA.1234-5678-9012-34567..x")?.isRenewal == false)
        #expect(GoogleOrderId("") == nil)
        #expect(GoogleOrderId(nil) == nil)
    }
}

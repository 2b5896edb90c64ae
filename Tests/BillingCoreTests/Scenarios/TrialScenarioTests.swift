import Foundation
import Testing
@testable import BillingCore

@Suite("Trial scenarios T-1..T-4")
struct TrialScenarioTests {
    @Test("T-1 first purchase with an Apple free trial is TRIALING until expiresDate")
    func t1() throws {
        let outcome = try TestData.projectApple("apple/SUBSCRIBED_INITIAL_BUY_TRIAL.json", current: nil)
        #expect(outcome.status == .trialing)
        #expect(outcome.subscription.trialEndsAt == Date(timeIntervalSince1970: 1_741_428_000)) // 2025-03-08T10:00:00Z
        #expect(outcome.entitlement.isActive)
        #expect(outcome.subscription.accountHasHadTrial)
        #expect(outcome.subscription.currentPrice == nil)
        #expect(!outcome.flags.trialAlreadyConsumed)
        // Every row written from the transaction records its offer as sent: the introductory offer, a free trial.
        let charge = try #require(outcome.transactions.first)
        #expect(charge.eventType == .purchased && charge.amount == Money(micros: 0, currencyCode: "USD"))
        #expect(outcome.transactions.allSatisfy { $0.offerType == 1 && $0.offerDiscountType == "FREE_TRIAL" })
    }

    @Test("T-2 DID_RENEW after the trial ended makes the subscription ACTIVE and keeps trialEndsAt")
    func t2() throws {
        var current = TestData.appleSnapshot(.trialing)
        current.trialEndsAt = Date(timeIntervalSince1970: 1_741_428_000)
        current.currentPrice = nil
        let outcome = try TestData.projectApple("apple/DID_RENEW.json", current: current)
        #expect(outcome.status == .active)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.subscription.trialEndsAt == current.trialEndsAt)
        #expect(outcome.subscription.currentPrice == TestData.usd999)
    }

    @Test("T-3 a second purchase without an offer is ACTIVE, never TRIALING")
    func t3() throws {
        let refs = TestData.appleRefs(account: ResolvedAccount(id: TestData.accountId, hasHadTrial: true))
        let outcome = try TestData.projectApple("apple/SUBSCRIBED_INITIAL_BUY.json", current: nil, refs: refs)
        #expect(outcome.status == .active)
        #expect(outcome.subscription.trialEndsAt == nil)
        #expect(outcome.subscription.accountHasHadTrial)
        #expect(!outcome.transactions.isEmpty && outcome.transactions.allSatisfy { $0.offerType == nil && $0.offerDiscountType == nil })
    }

    @Test("T-3 audit: a store-granted trial for an account that already had one is flagged")
    func trialReuseFlag() throws {
        let refs = TestData.appleRefs(account: ResolvedAccount(id: TestData.accountId, hasHadTrial: true))
        let outcome = try TestData.projectApple("apple/SUBSCRIBED_INITIAL_BUY_TRIAL.json", current: nil, refs: refs)
        #expect(outcome.status == .trialing)
        #expect(outcome.flags.trialAlreadyConsumed)
    }

    /// The T-1 fixture with the free week redeemed from an offer code (`offerType` 3) instead of the introductory offer.
    static func offerCodeState(price: Int64 = 0) throws -> AppleStoreState {
        var state = try Fixtures.apple("apple/SUBSCRIBED_INITIAL_BUY_TRIAL.json")
        state.transaction.rawOfferType = 3
        state.transaction.offerIdentifier = "free-week-code"
        state.transaction.price = price
        return state
    }

    @Test("An Apple offer-code free week is ACTIVE, not a trial, with a charge of 0 and no current price")
    func offerCodeFreeWeek() throws {
        let state = try Self.offerCodeState()
        let outcome = try Projection.project(current: nil, storeState: .apple(state), trigger: TestData.webhook(at: TestData.day(1)),
                                             resolved: TestData.appleRefs())
        #expect(outcome.status == .active)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.subscription.trialEndsAt == nil)
        #expect(!outcome.subscription.accountHasHadTrial)
        #expect(outcome.subscription.currentPrice == nil)
        let charge = try #require(outcome.transactions.first)
        #expect(charge.eventType == .purchased && charge.amount == Money(micros: 0, currencyCode: "USD"))
        // The charge says it was an offer code (what reconcile matches with Apple's `CR` rows), not a trial.
        #expect(charge.offerType == 3 && charge.offerDiscountType == "FREE_TRIAL")

        // Redeemed at a renewal of a paying subscription: still no price change (the free week is not a list price).
        var current = TestData.appleSnapshot(.active)
        current.productId = state.transaction.productId
        let renewed = try Projection.project(current: current, storeState: .apple(state), trigger: TestData.webhook(at: TestData.day(1)),
                                             resolved: TestData.appleRefs())
        #expect(!renewed.transactions.contains { $0.eventType == .priceChanged })
        // A paid offer is not a free period: its price is the current price, as before.
        let paid = try Projection.project(current: nil, storeState: .apple(try Self.offerCodeState(price: 4_990)),
                                          trigger: TestData.webhook(at: TestData.day(1)), resolved: TestData.appleRefs())
        #expect(paid.subscription.currentPrice == Money(micros: 4_990_000, currencyCode: "USD"))
    }

    @Test("T-4 Google purchase with offerPhase.freeTrial is TRIALING until that line item's expiryTime")
    func t4() throws {
        let outcome = try TestData.projectGoogle("google/extra/04_PURCHASED_FREE_TRIAL.json", current: nil)
        #expect(outcome.status == .trialing)
        #expect(outcome.subscription.trialEndsAt == (try RFC3339Timestamp("2025-03-08T09:00:00.412Z")).date)
        #expect(outcome.entitlement.isActive)
        let charge = try #require(outcome.transactions.first)
        #expect(charge.amount == Money(micros: 0, currencyCode: "USD"))
        #expect(charge.eventType == .purchased)
        // Google rows carry no Apple offer type (the trial is read from the line item's offerPhase).
        #expect(outcome.transactions.allSatisfy { $0.offerType == nil && $0.offerDiscountType == nil })
    }
}

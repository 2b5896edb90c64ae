import Foundation
import Testing
@testable import BillingCore

/// The three instants several jobs can write for the same store fact take the store's value, whichever job (and
/// stored state) comes first: `lastStoreStateAt`, an Apple EXPIRED row's `effectiveAt`, a CANCELED transition's `stateAt`.
@Suite("Store instants independent of the job order")
struct StoreInstantTests {
    @Test("A re-query that shows the stored state, later, leaves lastStoreStateAt at the instant of the state")
    func requeryOfTheStoredStateKeepsTheInstant() throws {
        let loaded = try Fixtures.google("google/05_SUBSCRIPTION_ON_HOLD.json")
        let state = GoogleStoreState(purchaseToken: loaded.state.purchaseToken, purchase: loaded.state.purchase)
        let first = try Projection.project(current: TestData.googleSnapshot(.inGracePeriod), storeState: .google(state),
                                           trigger: ProjectionTrigger(source: .requery, now: TestData.day(35)),
                                           resolved: TestData.googleRefs())
        #expect(first.disposition == .applied && first.subscription.lastStoreStateAt == TestData.day(35))
        let again = try Projection.project(current: first.subscription, storeState: .google(state),
                                           trigger: ProjectionTrigger(source: .requery, now: TestData.day(40)),
                                           resolved: TestData.googleRefs())
        #expect(again.disposition == .unchanged)
        #expect(again.subscription.lastStoreStateAt == TestData.day(35), "a later look at the same state is not a newer state")
        #expect(again.subscription.lastVerifiedAt == TestData.day(40))
    }

    @Test("An Apple billing-retry EXPIRED row has one instant whether the stored status is on hold or already expired")
    func appleBillingExpiryIgnoresTheStoredStatus() throws {
        let state = try Fixtures.apple("apple/EXPIRED_BILLING_RETRY.json")
        #expect(state.renewalInfo?.expirationIntentValue == .billingError)
        let signed = try #require(state.notification?.signedDate?.date)
        var instants: Set<Date> = []
        for stored in [SubscriptionStatus.onHold, .inGracePeriod, .active, .expired] {
            let outcome = try Projection.project(current: TestData.appleSnapshot(stored), storeState: .apple(state),
                                                 trigger: TestData.webhook(at: signed.addingTimeInterval(60)),
                                                 resolved: TestData.appleRefs())
            let row = try #require(outcome.transactions.first { $0.eventType == .expired }, "stored \(stored)")
            instants.insert(row.effectiveAt)
        }
        #expect(instants == [signed], "dated when the store gave up retrying: \(instants)")

        let voluntary = try Fixtures.apple("apple/EXPIRED_VOLUNTARY.json")
        let expiry = try #require(voluntary.transaction.expiresDate?.date)
        for stored in [SubscriptionStatus.onHold, .canceled] {
            let outcome = try Projection.project(current: TestData.appleSnapshot(stored), storeState: .apple(voluntary),
                                                 trigger: TestData.webhook(at: expiry.addingTimeInterval(86_400)),
                                                 resolved: TestData.appleRefs())
            #expect(outcome.transactions.first { $0.eventType == .expired }?.effectiveAt == expiry, "stored \(stored)")
        }
    }

    @Test("An Apple change closed by the expiry is CANCELED at the period end, whatever the state's signedDate")
    func appleCanceledTransitionAtTheExpiry() throws {
        let pending = try PriceChangeTests.apple("apple/PRICE_INCREASE_PENDING.json", current: TestData.appleSnapshot(.active))
        let expiry = try #require(try Fixtures.apple("apple/EXPIRED_PRICE_INCREASE.json").transaction.expiresDate?.date)
        let notified = try Fixtures.apple("apple/EXPIRED_PRICE_INCREASE.json")
        let signed = try #require(notified.notification?.signedDate?.date)
        // The same expiry seen by its notification, and days later by a re-query whose answer is freshly signed.
        var requeried = notified
        requeried.notification = nil
        requeried.renewalInfo?.signedDate = AppleTimestamp(date: signed.addingTimeInterval(3 * 86_400))
        requeried.transaction.signedDate = AppleTimestamp(date: signed.addingTimeInterval(3 * 86_400))
        var instants: Set<Date> = []
        for state in [notified, requeried] {
            let expired = try Projection.project(current: pending.subscription, storeState: .apple(state),
                                                 trigger: TestData.webhook(at: signed.addingTimeInterval(4 * 86_400)),
                                                 resolved: TestData.appleRefs())
            #expect(expired.priceChange?.state == .canceled)
            if let at = expired.priceChange?.stateAt { instants.insert(at) }
        }
        #expect(instants == [expiry], "\(instants) vs the period end \(expiry)")
    }

    @Test("A Google change closed by the user's cancellation is CANCELED at the cancelTime, on a notification or a re-query")
    func googleCanceledTransitionAtTheCancelTime() throws {
        let pending = try TestData.projectGoogle("google/19_SUBSCRIPTION_PRICE_CHANGE_UPDATED.json", current: TestData.googleSnapshot(.active))
        var loaded = try Fixtures.google("google/03_SUBSCRIPTION_CANCELED.json")
        if var item = loaded.state.purchase?.lineItems?.first {
            item.autoRenewingPlan?.priceChangeDetails = PriceChangeTests.details(mode: "PRICE_INCREASE", state: "OUTSTANDING",
                                                                                 units: "12", nanos: 990_000_000)
            loaded.state.purchase?.lineItems = [item]
        }
        let cancelTime = try #require(loaded.state.purchase?.canceledStateContext?.userInitiatedCancellation?.cancelTime?.date)
        let notified = try Projection.project(current: pending.subscription, storeState: .google(loaded.state),
                                              trigger: TestData.webhook(at: loaded.eventTime.addingTimeInterval(60)),
                                              resolved: TestData.googleRefs())
        var requeried = loaded.state
        requeried.notification = nil
        let queried = try Projection.project(current: pending.subscription, storeState: .google(requeried),
                                             trigger: ProjectionTrigger(source: .requery, now: loaded.eventTime.addingTimeInterval(86_400)),
                                             resolved: TestData.googleRefs())
        #expect(notified.priceChange?.state == .canceled && queried.priceChange?.state == .canceled)
        #expect(notified.priceChange?.stateAt == cancelTime)
        #expect(queried.priceChange?.stateAt == cancelTime)
    }
}

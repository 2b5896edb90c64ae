import Foundation
import Testing
@testable import BillingCore

/// The three instants several jobs can write for the same store fact take the store's value, whichever job (and
/// stored state) comes first: `lastStoreStateAt`, an Apple EXPIRED row's `effectiveAt`, a CANCELED transition's `stateAt`.
@Suite("Store instants independent of the job order")
struct StoreInstantTests {
    static func google(_ state: GoogleStoreState, on current: SubscriptionSnapshot, at now: Date) throws -> ProjectionOutcome {
        try Projection.project(current: current, storeState: .google(state),
                               trigger: state.notification == nil ? ProjectionTrigger(source: .requery, now: now) : TestData.webhook(at: now),
                               resolved: TestData.googleRefs())
    }

    @Test("A re-query counts with the instant its content records, so re-query and notification agree in either order")
    func lastStoreStateAtDoesNotDependOnWhenOrWhetherAJobAsked() throws {
        let loaded = try Fixtures.google("google/05_SUBSCRIPTION_ON_HOLD.json")
        var queried = loaded.state
        queried.notification = nil
        let grace = TestData.googleSnapshot(.inGracePeriod)
        let early = try Self.google(queried, on: grace, at: TestData.day(35))
        let late = try Self.google(queried, on: grace, at: TestData.day(40))
        let recorded = try #require(early.subscription.lastStoreStateAt)
        #expect(late.subscription.lastStoreStateAt == recorded, "asked later, the same state has the same instant")
        #expect(recorded < TestData.day(35), "not the time of asking")

        let notified = try Self.google(loaded.state, on: grace, at: loaded.eventTime.addingTimeInterval(60))
        let notifiedThenQueried = try Self.google(queried, on: notified.subscription, at: TestData.day(40))
        let queriedThenNotified = try Self.google(loaded.state, on: early.subscription, at: loaded.eventTime.addingTimeInterval(60))
        let expected = max(recorded, loaded.eventTime)
        #expect(notifiedThenQueried.subscription.lastStoreStateAt == expected)
        #expect(queriedThenNotified.subscription.lastStoreStateAt == expected)
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

import Foundation
import Testing
@testable import BillingCore

@Suite("Ordering, re-query and edge notifications")
struct OrderingAndEdgeTests {
    @Test("An older state never overwrites a newer one, but its history rows are still recorded")
    func staleState() throws {
        let renewed = try TestData.projectApple("apple/DID_RENEW.json", current: TestData.appleSnapshot(.active))
        let late = try TestData.projectApple("apple/DID_CHANGE_RENEWAL_STATUS_AUTO_RENEW_DISABLED.json", current: renewed.subscription)
        #expect(late.disposition == .stale)
        #expect(late.subscription == renewed.subscription.with(lastVerifiedAt: late.subscription.lastVerifiedAt))
        #expect(late.subscription.autoRenew)
        #expect(late.transactionKeys.contains("APPLE:2000000812345678:2000000812345678:CANCELED"))
        #expect(late.priceChange == nil)
    }

    @Test("A re-query answered with an earlier transaction, freshly signed, is refused for every field")
    func requeryServingAnEarlierTransaction() throws {
        // Stored: a later period at a new price, auto-renew turned off on day 40; the re-query's latest transaction is
        // the first period's (purchaseDate day 0.4) though its signedDate (day 32) is after the stored state's (day 30).
        var current = TestData.appleSnapshot(.canceled, autoRenew: false, latestTransactionId: "2000000899999999")
        current.currentPrice = Money(micros: 12_990_000, currencyCode: "USD")
        current.currentPeriodStartAt = TestData.day(31)
        current.currentPeriodEndAt = TestData.day(59)
        current.cancelAt = TestData.day(59)
        current.canceledAt = TestData.day(40)
        current.lastStoreStateAt = TestData.day(30)
        let state = try Fixtures.apple("apple/requery/STATUS_GRACE.json")
        let outcome = try Projection.project(current: current, storeState: .apple(state),
                                             trigger: ProjectionTrigger(source: .requery, now: TestData.day(45)),
                                             resolved: TestData.appleRefs())
        #expect(outcome.disposition == .stale)
        #expect(outcome.subscription.with(lastVerifiedAt: nil) == current.with(lastVerifiedAt: nil))
        #expect(outcome.subscription.canceledAt == TestData.day(40))
        #expect(outcome.subscription.lastStoreStateAt == TestData.day(30))
        #expect(outcome.priceChange == nil)
        #expect(outcome.transactionKeys == ["APPLE:2000000812345678:2000000812345678"], "only the earlier charge itself")
    }

    @Test("A re-query with no notification derives status and event from the state")
    func requeryGrace() throws {
        let state = try Fixtures.apple("apple/requery/STATUS_GRACE.json")
        let trigger = ProjectionTrigger(source: .requery, now: TestData.day(32))
        let outcome = try Projection.project(current: TestData.appleSnapshot(.active), storeState: .apple(state), trigger: trigger,
                                             resolved: TestData.appleRefs())
        #expect(outcome.status == .inGracePeriod)
        #expect(outcome.eventType == .enteredGracePeriod)
        #expect(outcome.eventLabel == "APPLE:REQUERY")
        #expect(outcome.transactionKeys.contains("APPLE:2000000812345678:2000000812345678:ENTERED_GRACE_PERIOD"))
        #expect(outcome.transactions.allSatisfy { $0.inboundEventId == nil })
    }

    @Test("A Google re-query without RTDN takes the state as truth")
    func googleRequery() throws {
        let loaded = try Fixtures.google("google/05_SUBSCRIPTION_ON_HOLD.json")
        let state = GoogleStoreState(purchaseToken: loaded.state.purchaseToken, purchase: loaded.state.purchase)
        let outcome = try Projection.project(current: TestData.googleSnapshot(.inGracePeriod), storeState: .google(state),
                                             trigger: ProjectionTrigger(source: .requery, now: TestData.day(35)),
                                             resolved: TestData.googleRefs())
        #expect(outcome.status == .onHold)
        #expect(outcome.eventType == .enteredOnHold)
        // The instant its content records (the paid period's end, when the hold began), not the time of the query.
        #expect(outcome.subscription.lastStoreStateAt == TestData.day(31))
    }

    @Test("Sandbox data is projected but flagged")
    func sandbox() throws {
        let state = try Fixtures.apple("apple/requery/STATUS_ACTIVE_SANDBOX.json")
        let outcome = try Projection.project(current: nil, storeState: .apple(state),
                                             trigger: ProjectionTrigger(source: .requery, now: TestData.day(1)),
                                             resolved: TestData.appleRefs())
        #expect(outcome.status == .active && outcome.entitlement.isActive)
        #expect(outcome.flags.isTestPurchase && outcome.flags.environment == .sandbox)
        #expect(outcome.transactions.allSatisfy { $0.isTest })
        // signedDate 1740873600000.25 ms keeps its fraction; a re-query's answer counts with its purchase, not its signing
        #expect(try AppleFacts(state: state).stateTime == Date(timeIntervalSince1970: 1_740_873_600.000_25))
        #expect(outcome.subscription.lastStoreStateAt == state.transaction.purchaseDate?.date)
    }

    @Test("Google test purchases are flagged")
    func googleTestPurchase() throws {
        var loaded = try Fixtures.google("google/04_SUBSCRIPTION_PURCHASED.json")
        loaded.state.purchase?.testPurchase = PresenceMarker()
        let outcome = try Projection.project(current: nil, storeState: .google(loaded.state),
                                             trigger: TestData.webhook(at: loaded.eventTime), resolved: TestData.googleRefs())
        #expect(outcome.subscription.isTestPurchase && outcome.flags.environment == .sandbox)
    }

    @Test("Unknown types and REFUND_DECLINED are recorded without changing state")
    func recordOnly() throws {
        for path in ["apple/UNKNOWN_TYPE.json", "apple/REFUND_DECLINED.json"] {
            let current = TestData.appleSnapshot(.active)
            let outcome = try TestData.projectApple(path, current: current)
            #expect(outcome.disposition == .unchanged)
            #expect(outcome.eventType == nil)
            #expect(outcome.transactions.isEmpty)
            #expect(outcome.subscription.with(lastVerifiedAt: nil) == current.with(lastVerifiedAt: nil))
        }
        var loaded = try Fixtures.google("google/02_SUBSCRIPTION_RENEWED.json")
        loaded.state.notification?.subscriptionNotification?.rawNotificationType = 99
        loaded.state.purchase?.rawSubscriptionState = "SUBSCRIPTION_STATE_FROM_THE_FUTURE"
        let outcome = try Projection.project(current: TestData.googleSnapshot(.active), storeState: .google(loaded.state),
                                             trigger: TestData.webhook(at: loaded.eventTime), resolved: TestData.googleRefs())
        #expect(outcome.disposition == .unchanged && outcome.eventLabel.hasPrefix("GOOGLE:99"))
    }

    @Test("REFUND_REVERSED re-derives the status from the reinstated transaction")
    func refundReversed() throws {
        let refunded = try TestData.projectApple("apple/REFUND.json", current: TestData.appleSnapshot(.active))
        #expect(refunded.status == .revoked && refunded.churnReason == .refund)
        // Sign rule: a refund row carries the amount given back, negative.
        #expect(refunded.transactions.last?.amount == Money(micros: -TestData.usd999.micros, currencyCode: "USD"))
        let reversed = try TestData.projectApple("apple/REFUND_REVERSED.json", current: refunded.subscription)
        #expect(reversed.status == .active)
        #expect(reversed.eventType == nil)
        #expect(reversed.entitlement.isActive)
    }

    @Test("A voided order revokes a live subscription and records REFUNDED; revocation survives a later re-query")
    func voidedPurchase() throws {
        let voided = try JSONDecoder().decode(VoidedPurchase.self, from: try Fixtures.data("google/extra/VOIDED_PURCHASE.json"))
        #expect(voided.voidedSource == 2 && voided.isChargeback)
        let state = GoogleStoreState(purchaseToken: TestData.googleToken, purchase: nil, voidedPurchase: voided)
        let outcome = try Projection.project(current: TestData.googleSnapshot(.active), storeState: .google(state),
                                             trigger: ProjectionTrigger(source: .voidedPurchaseSweep, now: TestData.day(45)),
                                             resolved: TestData.googleRefs())
        #expect(outcome.status == .revoked && !outcome.entitlement.isActive)
        #expect(outcome.transactionKeys == ["GOOGLE:\(TestData.googleToken):GPA.3345-9812-4476-10293..0:REFUNDED"])
        #expect(throws: ProjectionError.self) {
            try Projection.project(current: nil, storeState: .google(state),
                                   trigger: ProjectionTrigger(source: .voidedPurchaseSweep, now: TestData.day(45)),
                                   resolved: TestData.googleRefs())
        }
    }

    @Test("Google type 12 keeps REVOKED on a later EXPIRED re-query of the same token")
    func revokedIsSticky() throws {
        let revoked = try TestData.projectGoogle("google/12_SUBSCRIPTION_REVOKED.json", current: TestData.googleSnapshot(.active))
        let loaded = try Fixtures.google("google/12_SUBSCRIPTION_REVOKED.json")
        let requery = GoogleStoreState(purchaseToken: loaded.state.purchaseToken, purchase: loaded.state.purchase)
        let later = try Projection.project(current: revoked.subscription, storeState: .google(requery),
                                           trigger: ProjectionTrigger(source: .requery, now: TestData.day(60)),
                                           resolved: TestData.googleRefs())
        #expect(later.status == .revoked)
    }
}

extension SubscriptionSnapshot {
    /// A copy with another lastVerifiedAt.
    func with(lastVerifiedAt: Date?) -> SubscriptionSnapshot {
        var copy = self
        copy.lastVerifiedAt = lastVerifiedAt
        return copy
    }
}

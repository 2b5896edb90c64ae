import Foundation
import Testing
@testable import BillingCore

@Suite("Google acknowledgement")
struct AcknowledgementTests {
    @Test("Initial purchase with acknowledgementState PENDING needs an acknowledgement")
    func initialPurchase() throws {
        let outcome = try TestData.projectGoogle("google/04_SUBSCRIPTION_PURCHASED.json", current: nil)
        #expect(outcome.subscription.acknowledgementStatus == .pending)
        #expect(outcome.flags.acknowledgementNeeded)
    }

    @Test("An already acknowledged purchase needs none")
    func alreadyAcknowledged() throws {
        var loaded = try Fixtures.google("google/04_SUBSCRIPTION_PURCHASED.json")
        loaded.state.purchase?.rawAcknowledgementState = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
        let outcome = try Projection.project(current: nil, storeState: .google(loaded.state),
                                             trigger: TestData.webhook(at: loaded.eventTime), resolved: TestData.googleRefs())
        #expect(outcome.subscription.acknowledgementStatus == .acknowledged)
        #expect(!outcome.flags.acknowledgementNeeded)
    }

    @Test("Renewals need none, even when the state still says PENDING")
    func renewal() throws {
        let acknowledged = try TestData.projectGoogle("google/02_SUBSCRIPTION_RENEWED.json", current: TestData.googleSnapshot(.active))
        #expect(!acknowledged.flags.acknowledgementNeeded)
        var loaded = try Fixtures.google("google/02_SUBSCRIPTION_RENEWED.json")
        loaded.state.purchase?.rawAcknowledgementState = "ACKNOWLEDGEMENT_STATE_PENDING"
        let outcome = try Projection.project(current: TestData.googleSnapshot(.active), storeState: .google(loaded.state),
                                             trigger: TestData.webhook(at: loaded.eventTime), resolved: TestData.googleRefs())
        #expect(outcome.subscription.acknowledgementStatus == .notRequired)
        #expect(!outcome.flags.acknowledgementNeeded)
    }

    @Test("A prepaid top-up needs an acknowledgement")
    func prepaidTopUp() throws {
        let plan = ResolvedPlan(planId: "plan-pro", provider: .google, productId: "pro_prepaid_30d", intervalUnit: .monthly)
        let outcome = try TestData.projectGoogle("google/extra/04_PREPAID_TOP_UP.json", current: TestData.googleSnapshot(.active),
                                                 refs: ResolvedReferences(tokenAccount: TestData.account, plan: plan))
        #expect(outcome.subscription.acknowledgementStatus == .pending)
        #expect(outcome.flags.acknowledgementNeeded)
        #expect(!outcome.subscription.autoRenew)
        #expect(outcome.subscription.google?.purchaseToken == TestData.newGoogleToken)
    }

    @Test("A PENDING (unpaid) purchase is never entitled, never acknowledged, and records no charge")
    func pendingPurchase() throws {
        let outcome = try TestData.projectGoogle("google/extra/04_PURCHASED_PENDING.json", current: nil)
        #expect(outcome.status == .pending)
        #expect(outcome.eventType == .purchased)
        #expect(!outcome.entitlement.isActive)
        #expect(outcome.subscription.acknowledgementStatus == .notRequired)
        #expect(!outcome.flags.acknowledgementNeeded)
        #expect(outcome.transactions.isEmpty)
    }
}

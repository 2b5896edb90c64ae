import Foundation
import Testing
@testable import BillingCore

@Suite("Idempotency and Google token chains")
struct IdempotencyAndChainTests {
    static let idempotencyFixtures = AppleMappingTable.rows.map(\.fixture) + GoogleMappingTable.rows.map(\.fixture)

    @Test("The same notification twice yields identical outcomes and transaction keys", arguments: idempotencyFixtures)
    func sameNotificationTwice(_ path: String) throws {
        let isApple = path.hasPrefix("apple/")
        let start = isApple ? TestData.appleSnapshot(.active) : TestData.googleSnapshot(.active)
        func run(_ current: SubscriptionSnapshot) throws -> ProjectionOutcome {
            isApple ? try TestData.projectApple(path, current: current) : try TestData.projectGoogle(path, current: current)
        }
        let first = try run(start)
        #expect(try run(start) == first)
        let second = try run(first.subscription)
        #expect(second.subscription == first.subscription)
        #expect(second.entitlement == first.entitlement)
        // Rows are insert-if-absent: a repeat may re-send rows but never adds a new key.
        #expect(Set(second.transactionKeys).isSubset(of: Set(first.transactionKeys)))
        #expect(second.disposition == .unchanged)
        #expect(Set(first.transactionKeys).count == first.transactionKeys.count)
    }

    @Test("linkedPurchaseToken: the new token becomes current, the old one not, the entitlement follows",
          arguments: ["UPGRADE", "DOWNGRADE", "RESUBSCRIBE"])
    func linkedToken(_ kind: String) throws {
        let plans = ["UPGRADE": "premium_monthly", "DOWNGRADE": "basic_monthly", "RESUBSCRIBE": "pro_monthly"]
        let product = try #require(plans[kind])
        let plan = ResolvedPlan(planId: "plan-" + product, provider: .google, productId: product, intervalUnit: .monthly)
        let current = TestData.googleSnapshot(kind == "RESUBSCRIBE" ? .canceled : .active, autoRenew: kind != "RESUBSCRIBE")
        let outcome = try TestData.projectGoogle("google/extra/04_LINKED_\(kind).json", current: current,
                                                 refs: ResolvedReferences(tokenAccount: TestData.account, plan: plan))
        #expect(outcome.subscription.id == current.id)
        #expect(outcome.subscription.google == GoogleTokenIdentity(purchaseToken: TestData.newGoogleToken,
                                                                   linkedPurchaseToken: TestData.googleToken))
        #expect(outcome.tokenChanges == [
            GoogleTokenChange(purchaseToken: TestData.newGoogleToken, linkedPurchaseToken: TestData.googleToken, isCurrent: true),
            GoogleTokenChange(purchaseToken: TestData.googleToken, linkedPurchaseToken: nil, isCurrent: false),
        ])
        #expect(outcome.entitlement.planId == plan.planId)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.subscription.productId == product)
        #expect(outcome.transactionKeys == ["GOOGLE:\(TestData.newGoogleToken):GPA.3397-1122-3344-55667"])
    }

    @Test("A later state of the replaced token never overwrites the new token's subscription")
    func supersededToken() throws {
        let upgraded = try TestData.projectGoogle("google/extra/04_LINKED_UPGRADE.json", current: TestData.googleSnapshot(.active))
        var loaded = try Fixtures.google("google/13_SUBSCRIPTION_EXPIRED.json")
        loaded.state.notification?.eventTimeMillis = "1743498000000"
        let outcome = try Projection.project(current: upgraded.subscription, storeState: .google(loaded.state),
                                             trigger: TestData.webhook(at: TestData.day(40)), resolved: TestData.googleRefs())
        #expect(outcome.subscription.status == .active)
        #expect(outcome.subscription.google?.purchaseToken == TestData.newGoogleToken)
        #expect(outcome.disposition == .unchanged)
        #expect(outcome.transactions.isEmpty)
    }

    @Test("A pending replacement purchase leaves the linked contract current and entitled")
    func pendingReplacement() throws {
        var loaded = try Fixtures.google("google/extra/04_LINKED_UPGRADE.json")
        loaded.state.purchase?.rawSubscriptionState = "SUBSCRIPTION_STATE_PENDING"
        let current = TestData.googleSnapshot(.active)
        let outcome = try Projection.project(current: current, storeState: .google(loaded.state),
                                             trigger: TestData.webhook(at: loaded.eventTime), resolved: TestData.googleRefs())
        #expect(outcome.subscription.google?.purchaseToken == TestData.googleToken)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.tokenChanges.isEmpty)
    }
}

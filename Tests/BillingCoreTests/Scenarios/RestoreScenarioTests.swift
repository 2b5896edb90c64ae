import Foundation
import Testing
@testable import BillingCore

@Suite("Restore and account linking R-1..R-3")
struct RestoreScenarioTests {
    static func ingest(_ action: IngestAction, by account: String) -> ProjectionTrigger {
        ProjectionTrigger(source: .clientIngest(action: action, requestingAccountId: account), now: TestData.day(1))
    }

    static func project(_ current: SubscriptionSnapshot?, _ trigger: ProjectionTrigger,
                        token: ResolvedAccount? = TestData.account) throws -> ProjectionOutcome {
        let state = try Fixtures.apple("apple/SUBSCRIBED_INITIAL_BUY.json")
        return try Projection.project(current: current, storeState: .apple(state), trigger: trigger,
                                      resolved: TestData.appleRefs(account: token))
    }

    @Test("R-1 restore of an existing subscription links it to the account and activates the entitlement")
    func r1() throws {
        let outcome = try Self.project(TestData.appleSnapshot(.active), Self.ingest(.restore, by: TestData.accountId))
        #expect(outcome.subscription.billingAccountId == TestData.accountId)
        #expect(outcome.entitlement.billingAccountId == TestData.accountId)
        #expect(outcome.entitlement.isActive)
    }

    @Test("R-1 restore claims an unclaimed purchase for the authenticated account")
    func restoreClaimsUnclaimed() throws {
        var unclaimed = TestData.appleSnapshot(.active)
        unclaimed.billingAccountId = nil
        let outcome = try Self.project(unclaimed, Self.ingest(.restore, by: TestData.accountId), token: nil)
        #expect(outcome.subscription.billingAccountId == TestData.accountId)
        #expect(outcome.entitlement.isActive)
        #expect(!outcome.flags.isUnclaimed)
    }

    @Test("A purchase whose token matches no account stays unclaimed with no entitlement")
    func unclaimedWebhook() throws {
        let outcome = try TestData.projectApple("apple/SUBSCRIBED_INITIAL_BUY.json", current: nil, refs: TestData.appleRefs(account: nil))
        #expect(outcome.status == .active)
        #expect(outcome.subscription.billingAccountId == nil)
        #expect(outcome.flags.isUnclaimed)
        #expect(!outcome.entitlement.isActive)
        #expect(outcome.transactions.count == 1)
    }

    @Test("R-2 an originalTransactionId owned by another account is not moved: error")
    func r2Apple() throws {
        let owned = TestData.appleSnapshot(.active)
        #expect(throws: ProjectionError.ownedByAnotherAccount(provider: .apple, identifier: TestData.originalTransactionId,
                                                               ownerAccountId: TestData.accountId,
                                                               requestedAccountId: TestData.otherAccountId)) {
            try Self.project(owned, Self.ingest(.restore, by: TestData.otherAccountId), token: nil)
        }
        #expect(throws: ProjectionError.self) {
            try Self.project(owned, TestData.webhook(at: TestData.day(1)), token: ResolvedAccount(id: TestData.otherAccountId))
        }
    }

    @Test("R-2 a purchaseToken owned by another account is not moved: error with a masked token")
    func r2Google() throws {
        let loaded = try Fixtures.google("google/02_SUBSCRIPTION_RENEWED.json")
        let trigger = ProjectionTrigger(source: .clientIngest(action: .restore, requestingAccountId: TestData.otherAccountId),
                                        now: loaded.eventTime)
        do {
            _ = try Projection.project(current: TestData.googleSnapshot(.active), storeState: .google(loaded.state),
                                       trigger: trigger, resolved: TestData.googleRefs(account: nil))
            Issue.record("expected ownedByAnotherAccount")
        } catch let error as ProjectionError {
            guard case .ownedByAnotherAccount(.google, _, TestData.accountId, TestData.otherAccountId) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(!error.description.contains(TestData.googleToken))
        }
    }

    @Test("R-2 an ingest whose account token names another account is rejected")
    func tokenMismatch() throws {
        #expect(throws: ProjectionError.accountTokenMismatch(tokenAccountId: TestData.accountId,
                                                             requestingAccountId: TestData.otherAccountId)) {
            try Self.project(nil, Self.ingest(.purchase, by: TestData.otherAccountId))
        }
    }

    @Test("R-3 purchase then restore: identical result, no duplicate rows")
    func r3() throws {
        let purchase = try Self.project(nil, Self.ingest(.purchase, by: TestData.accountId))
        let restore = try Self.project(purchase.subscription, Self.ingest(.restore, by: TestData.accountId))
        #expect(restore.subscription == purchase.subscription)
        #expect(restore.entitlement == purchase.entitlement)
        #expect(restore.transactionKeys == purchase.transactionKeys)
        #expect(restore.disposition == .unchanged)
        let restoreFirst = try Self.project(nil, Self.ingest(.restore, by: TestData.accountId))
        #expect(restoreFirst == purchase)
    }

    @Test("Provider WEB is rejected")
    func webRejected() throws {
        var web = TestData.appleSnapshot(.active)
        web.provider = .web
        #expect(throws: ProjectionError.unsupportedProvider(.web)) {
            try Self.project(web, TestData.webhook(at: TestData.day(1)))
        }
        let state = try Fixtures.apple("apple/SUBSCRIBED_INITIAL_BUY.json")
        let webPlan = ResolvedPlan(planId: "plan-pro", provider: .web, productId: "pro", intervalUnit: .monthly)
        #expect(throws: ProjectionError.unsupportedProvider(.web)) {
            try Projection.project(current: nil, storeState: .apple(state), trigger: TestData.webhook(at: TestData.day(1)),
                                   resolved: ResolvedReferences(tokenAccount: TestData.account, plan: webPlan))
        }
    }

    @Test("An unmapped product of an unknown subscription is an error")
    func unmappedProduct() throws {
        let state = try Fixtures.apple("apple/SUBSCRIBED_INITIAL_BUY.json")
        #expect(throws: ProjectionError.productNotMapped(productId: "com.example.fitness.pro.monthly")) {
            try Projection.project(current: nil, storeState: .apple(state), trigger: TestData.webhook(at: TestData.day(1)),
                                   resolved: ResolvedReferences(tokenAccount: TestData.account, plan: nil))
        }
    }
}

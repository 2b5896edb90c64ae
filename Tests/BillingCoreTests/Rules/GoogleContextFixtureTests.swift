import Foundation
import Testing
@testable import BillingCore

/// Pause, user cancellation with survey, upgrade chains seen through re-queries, replacement and signup promotions.
@Suite("Google: state contexts of real answers")
struct GoogleContextFixtureTests {
    static let oldToken = TestData.googleToken
    static let newToken = TestData.newGoogleToken

    @Test("pausedStateContext.autoResumeTime is decoded; a paused subscription records PAUSED and is not entitled")
    func paused() throws {
        let state = try GoogleRequeryFixtures.state("PAUSED")
        #expect(state.purchase?.pausedStateContext?.autoResumeTime?.date
                == (try GoogleRequeryFixtures.instant("2025-05-04T11:20:15.774Z")))
        let outcome = try GoogleRequeryFixtures.project(state, current: TestData.googleSnapshot(.active), now: TestData.day(10))
        #expect(outcome.status == .paused)
        #expect(outcome.transactions.contains { $0.eventType == .paused
            && $0.transactionKey == "GOOGLE:\(Self.oldToken):GPA.3308-5521-9047-33812..2:PAUSED" })
        #expect(!outcome.entitlement.isActive)
    }

    @Test("A user cancellation keeps its survey reason and is dated at cancelTime")
    func userCancellationSurvey() throws {
        let state = try GoogleRequeryFixtures.state("CANCELED_WITH_SURVEY")
        let cancellation = try #require(state.purchase?.canceledStateContext?.userInitiatedCancellation)
        #expect(cancellation.cancelSurveyResult?.reason == "CANCEL_SURVEY_REASON_OTHERS")
        #expect(cancellation.cancelSurveyResult?.reasonUserInput == "I only needed it for one training block")
        let cancelTime = try GoogleRequeryFixtures.instant("2025-03-05T19:48:02.117Z")
        let outcome = try GoogleRequeryFixtures.project(state, current: TestData.googleSnapshot(.active), now: TestData.day(6))
        #expect(outcome.status == .canceled)
        #expect(outcome.subscription.canceledAt == cancelTime)
        #expect(outcome.entitlement.isActive)
        let row = try #require(outcome.transactions.first { $0.eventType == .canceled })
        #expect(row.effectiveAt == cancelTime)
        #expect(row.churnReason == .voluntary)
        // The stored payload of the row is the answer, survey included.
        let stored = try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: row.rawPayload)
        #expect(stored.canceledStateContext?.userInitiatedCancellation?.cancelSurveyResult?.reason == "CANCEL_SURVEY_REASON_OTHERS")
    }

    @Test("An upgrade seen first through a re-query continues the old subscription; the old token's answer is then ignored")
    func linkedUpgradeThroughRequery() throws {
        let old = TestData.googleSnapshot(.active)
        let upgrade = try GoogleRequeryFixtures.state("LINKED_UPGRADE", token: Self.newToken)
        let replaced = try GoogleRequeryFixtures.state("REPLACED_BY_UPGRADE", token: Self.oldToken)
        let upgraded = try GoogleRequeryFixtures.project(upgrade, current: old, now: TestData.day(15))
        #expect(upgraded.subscription.id == old.id)
        #expect(upgraded.subscription.google?.purchaseToken == Self.newToken)
        #expect(upgraded.subscription.google?.linkedPurchaseToken == Self.oldToken)
        #expect(upgraded.subscription.productId == "premium_monthly")
        #expect(upgraded.status == .active && upgraded.entitlement.isActive)
        #expect(upgraded.tokenChanges == [
            GoogleTokenChange(purchaseToken: Self.newToken, linkedPurchaseToken: Self.oldToken, isCurrent: true),
            GoogleTokenChange(purchaseToken: Self.oldToken, linkedPurchaseToken: nil, isCurrent: false),
        ])
        #expect(upgraded.transactionKeys == ["GOOGLE:\(Self.newToken):GPA.3397-1122-3344-55667"])
        let later = try GoogleRequeryFixtures.project(replaced, current: upgraded.subscription, now: TestData.day(16))
        #expect(later.disposition == .unchanged)
        #expect(later.subscription == upgraded.subscription.with(lastVerifiedAt: TestData.day(16)))
        #expect(later.transactions.isEmpty && later.tokenChanges.isEmpty)
    }

    @Test("The old token's replacement seen before the upgrade: churn REPLACED, then the upgrade revives the same subscription")
    func replacementCancellation() throws {
        let old = TestData.googleSnapshot(.active)
        let replaced = try GoogleRequeryFixtures.state("REPLACED_BY_UPGRADE", token: Self.oldToken)
        #expect(replaced.purchase?.canceledStateContext?.replacementCancellation != nil)
        let ended = try GoogleRequeryFixtures.project(replaced, current: old, now: TestData.day(15))
        #expect(ended.status == .expired)
        #expect(ended.churnReason == .replaced)
        let expiredRow = try #require(ended.transactions.first { $0.eventType == .expired })
        #expect(expiredRow.churnReason == .replaced)
        let upgrade = try GoogleRequeryFixtures.state("LINKED_UPGRADE", token: Self.newToken)
        let upgraded = try GoogleRequeryFixtures.project(upgrade, current: ended.subscription, now: TestData.day(15).addingTimeInterval(60))
        #expect(upgraded.subscription.id == old.id)
        #expect(upgraded.subscription.google?.purchaseToken == Self.newToken)
        #expect(upgraded.status == .active && upgraded.entitlement.isActive)
        #expect(upgraded.transactionKeys.contains("GOOGLE:\(Self.newToken):GPA.3397-1122-3344-55667"))
    }

    @Test("signupPromotion is decoded and kept on the charge row (vanity code with its code, one-time code without)")
    func signupPromotion() throws {
        let vanity = try GoogleRequeryFixtures.state("SIGNUP_VANITY_CODE")
        #expect(vanity.purchase?.lineItems?.first?.signupPromotion?.vanityCode?.promotionCode == "SPRINGRUN25")
        let vanityRow = try #require(try GoogleRequeryFixtures.project(vanity, current: nil, now: TestData.day(2)).transactions.first)
        #expect(vanityRow.eventType == .purchased)
        #expect(vanityRow.signupPromotionType == .vanityCode)
        #expect(vanityRow.signupPromotionCode == "SPRINGRUN25")
        let oneTime = try GoogleRequeryFixtures.state("SIGNUP_ONE_TIME_CODE")
        #expect(oneTime.purchase?.lineItems?.first?.signupPromotion?.kind == .oneTimeCode)
        let oneTimeRow = try #require(try GoogleRequeryFixtures.project(oneTime, current: nil, now: TestData.day(3)).transactions.first)
        #expect(oneTimeRow.signupPromotionType == .oneTimeCode)
        #expect(oneTimeRow.signupPromotionCode == nil)
        let plain = try GoogleRequeryFixtures.state("EXPIRED_FIRST_SIGHT")
        let plainRows = try GoogleRequeryFixtures.project(plain, current: nil, now: TestData.day(20)).transactions
        #expect(plainRows.allSatisfy { $0.signupPromotionType == nil && $0.signupPromotionCode == nil })
    }
}

private extension SubscriptionSnapshot {
    func with(lastVerifiedAt: Date) -> SubscriptionSnapshot {
        var copy = self
        copy.lastVerifiedAt = lastVerifiedAt
        return copy
    }
}

import Foundation
@testable import BillingCore

/// Shared identities, plans and snapshot builders for the tests.
enum TestData {
    static let accountId = "acct-7f3a"
    static let otherAccountId = "acct-9b21"
    static let appleToken = "6f0e5c1e-4d7a-4f33-9a52-1b7d2a0c9e11"
    static let googleAccountToken = "b6c1f3a2-7e4d-4a51-8c39-2d0f9e7a6b15"
    static let originalTransactionId = "2000000812345678"
    static let firstTransactionId = "2000000812345678"
    static let googleToken = "pkmbhjgcdlmojdaecpfbmkal.AO-J1OzQbX3kL9vTq2mRr8yNw5sUe7cHf0aDg4iJp6KoLb1VnMxZs3tYu9wQe2rTy5uIo8pAs1dFg4hJk7lZx0cVb3nM6qWe9rTy2uI"
    static let newGoogleToken = "ffgdjhaonbmpkcifacgmpndl.AO-J1OxR7nP2sK8vLq4mZt6yWc1uXe9bHd3aFg5iJo0KpLr2VnMxZs8tYu4wQe7rTy1uIo3pAs6dFg9hJk2lZx5cVb8nM1qWe4rTy7uI"
    static let usd999 = Money(micros: 9_990_000, currencyCode: "USD")

    static let applePlan = ResolvedPlan(planId: "plan-pro", provider: .apple, productId: "com.example.fitness.pro.monthly",
                                        intervalUnit: .monthly)
    static let googlePlan = ResolvedPlan(planId: "plan-pro", provider: .google, productId: "pro_monthly",
                                         basePlanId: "monthly", intervalUnit: .monthly)
    static let account = ResolvedAccount(id: accountId)

    static func appleRefs(account: ResolvedAccount? = TestData.account) -> ResolvedReferences {
        ResolvedReferences(tokenAccount: account, plan: applePlan)
    }

    static func googleRefs(account: ResolvedAccount? = TestData.account) -> ResolvedReferences {
        ResolvedReferences(tokenAccount: account, plan: googlePlan)
    }

    /// 2025-03-01T00:00:00Z plus an offset in days.
    static func day(_ offset: Double) -> Date { Date(timeIntervalSince1970: 1_740_787_200 + offset * 86_400) }

    static func webhook(at date: Date) -> ProjectionTrigger {
        ProjectionTrigger(source: .webhook(inboundEventId: "iwe-0001"), now: date)
    }

    /// A known Apple subscription owned by `accountId`, last updated before every fixture.
    static func appleSnapshot(_ status: SubscriptionStatus, autoRenew: Bool = true,
                              latestTransactionId: String = firstTransactionId) -> SubscriptionSnapshot {
        SubscriptionSnapshot(
            id: "sub-apple-1", provider: .apple, billingAccountId: accountId, planId: applePlan.planId,
            productId: applePlan.productId, status: status, autoRenew: autoRenew, currentPrice: usd999,
            currentPeriodStartAt: day(0), currentPeriodEndAt: day(31), lastVerifiedAt: day(-28),
            lastStoreStateAt: day(-28),
            apple: AppleSubscriptionIdentity(originalTransactionId: originalTransactionId,
                                             latestTransactionId: latestTransactionId, appAccountToken: appleToken))
    }

    /// A known Google subscription owned by `accountId`, last updated before every fixture.
    static func googleSnapshot(_ status: SubscriptionStatus, autoRenew: Bool = true,
                               acknowledgement: AcknowledgementStatus = .acknowledged) -> SubscriptionSnapshot {
        SubscriptionSnapshot(
            id: "sub-google-1", provider: .google, billingAccountId: accountId, planId: googlePlan.planId,
            productId: googlePlan.productId, status: status, acknowledgementStatus: acknowledgement, autoRenew: autoRenew,
            currentPrice: usd999, currentPeriodStartAt: day(0), currentPeriodEndAt: day(31), lastVerifiedAt: day(-28),
            lastStoreStateAt: day(-28), google: GoogleTokenIdentity(purchaseToken: googleToken))
    }

    /// Projects an Apple fixture one minute after its notification.
    static func projectApple(_ path: String, current: SubscriptionSnapshot?, refs: ResolvedReferences = appleRefs(),
                             settings: ProjectionSettings = .standard) throws -> ProjectionOutcome {
        let state = try Fixtures.apple(path)
        let signed = state.notification?.signedDate?.date ?? state.transaction.signedDate?.date ?? day(0)
        return try Projection.project(current: current, storeState: .apple(state),
                                      trigger: webhook(at: signed.addingTimeInterval(60)), settings: settings, resolved: refs)
    }

    /// Projects a Google fixture one minute after its RTDN.
    static func projectGoogle(_ path: String, current: SubscriptionSnapshot?, refs: ResolvedReferences = googleRefs(),
                              settings: ProjectionSettings = .standard) throws -> ProjectionOutcome {
        let loaded = try Fixtures.google(path)
        return try Projection.project(current: current, storeState: .google(loaded.state),
                                      trigger: webhook(at: loaded.eventTime.addingTimeInterval(60)), settings: settings,
                                      resolved: refs)
    }
}

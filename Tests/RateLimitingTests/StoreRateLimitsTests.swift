import Foundation
import RateLimiting
import StoreCalls
import Testing

/// Documented defaults, the sandbox rule, and the overrides parser.
@Suite struct StoreRateLimitsTests {
    static let defaults: [(StoreEndpoint, RateLimit)] = [
        (.appleGetTransactionInfo, RateLimit(capacity: 50, refillPerSecond: 50)),
        (.appleGetTransactionHistory, RateLimit(capacity: 50, refillPerSecond: 50)),
        (.appleGetAllSubscriptionStatuses, RateLimit(capacity: 50, refillPerSecond: 50)),
        (.appleGetNotificationHistory, RateLimit(capacity: 50, refillPerSecond: 50)),
        (.appleLookUpOrderId, RateLimit(capacity: 10, refillPerSecond: 10)),
        (.appleGetRefundHistory, RateLimit(capacity: 10, refillPerSecond: 10)),
        (.appleRequestTestNotification, RateLimit(capacity: 1, refillPerSecond: 1)),
        (.appleGetTestNotificationStatus, RateLimit(capacity: 1, refillPerSecond: 1)),
        (.googleSubscriptionsV2Get, RateLimit(capacity: 50, refillPerSecond: 2_950.0 / 60)),
        (.googleSubscriptionsAcknowledge, RateLimit(capacity: 50, refillPerSecond: 2_950.0 / 60)),
        (.googleVoidedPurchasesList, RateLimit(capacity: 5, refillPerSecond: 25.0 / 30, dailyBudget: 6_000)),
    ]

    @Test(arguments: defaults)
    func productionDefaults(_ endpoint: StoreEndpoint, _ expected: RateLimit) {
        #expect(StoreRateLimits().limit(for: endpoint) == expected)
    }

    @Test func windowsNeverAdmitMoreThanTheQuota() {
        for endpoint in [StoreEndpoint.googleSubscriptionsV2Get, .googleVoidedPurchasesList] {
            let limit = endpoint.productionLimit
            let window: Double = endpoint == .googleVoidedPurchasesList ? 30 : 60
            let quota: Double = endpoint == .googleVoidedPurchasesList ? 30 : 3_000
            #expect(abs(limit.capacity + limit.refillPerSecond * window - quota) < 1e-9)
        }
    }

    @Test func sandboxIsTenPercentForAppleOnly() {
        let sandbox = StoreRateLimits(appleEnvironment: .sandbox)
        #expect(sandbox.limit(for: .appleGetTransactionInfo) == RateLimit(capacity: 5, refillPerSecond: 5))
        #expect(sandbox.limit(for: .appleLookUpOrderId) == RateLimit(capacity: 1, refillPerSecond: 1))
        #expect(sandbox.limit(for: .appleRequestTestNotification) == RateLimit(capacity: 1, refillPerSecond: 0.1))
        #expect(sandbox.limit(for: .googleSubscriptionsV2Get) == StoreRateLimits().limit(for: .googleSubscriptionsV2Get))
    }

    @Test func overridesReplaceRatesAndBudgets() throws {
        let limits = try StoreRateLimits(overrides: " apple.getAllSubscriptionStatuses=20, google.subscriptionsv2.get=10,,google.voidedpurchases.list.daily=500 ")
        #expect(limits.limit(for: .appleGetAllSubscriptionStatuses) == RateLimit(capacity: 20, refillPerSecond: 20))
        #expect(limits.limit(for: .googleSubscriptionsV2Get) == RateLimit(capacity: 10, refillPerSecond: 10))
        #expect(limits.limit(for: .googleVoidedPurchasesList).dailyBudget == 500)
        #expect(limits.limit(for: .appleGetTransactionInfo) == RateLimit(capacity: 50, refillPerSecond: 50))
        #expect(try StoreRateLimits(overrides: "") == StoreRateLimits())
        #expect(try StoreRateLimits(overrides: "apple.lookUpOrderId=0.5").limit(for: .appleLookUpOrderId) == RateLimit(capacity: 1, refillPerSecond: 0.5))
        #expect(try StoreRateLimits(overrides: "apple.getAllSubscriptionStatuses=47.5/4").limit(for: .appleGetAllSubscriptionStatuses)
            == RateLimit(capacity: 4, refillPerSecond: 47.5), "rate/burst sets the burst")
    }

    @Test(arguments: [
        ("apple.getTransactionInfo", "apple.getTransactionInfo", "expected key=value"),
        ("apple.getTransactionInfo=20,apple.getTransactionInfos=3", "apple.getTransactionInfos=3", "unknown endpoint 'apple.getTransactionInfos'"),
        ("google.subscriptionsv2.get=fast", "google.subscriptionsv2.get=fast", "positive number"),
        ("google.subscriptionsv2.get=-1", "google.subscriptionsv2.get=-1", "positive number"),
        ("google.subscriptionsv2.get=inf", "google.subscriptionsv2.get=inf", "positive number"),
        ("google.voidedpurchases.list.daily=1.5", "google.voidedpurchases.list.daily=1.5", "positive integer"),
        ("=5", "=5", "unknown endpoint ''"),
        ("google.subscriptionsv2.get=5/0", "google.subscriptionsv2.get=5/0", "burst"),
        ("google.subscriptionsv2.get=5/x", "google.subscriptionsv2.get=5/x", "burst"),
        ("google.subscriptionsv2.get=/3", "google.subscriptionsv2.get=/3", "positive number"),
    ])
    func badEntriesAreNamed(_ text: String, _ entry: String, _ reasonFragment: String) {
        do {
            _ = try StoreRateLimits(overrides: text)
            Issue.record("'\(text)' was accepted")
        } catch {
            guard case .invalidOverride(let badEntry, let reason) = error else { Issue.record("\(error)"); return }
            #expect(badEntry == entry)
            #expect(reason.contains(reasonFragment), "\(reason)")
            #expect(error.description.contains(entry))
        }
    }

    @Test func bucketKeysCarryTheScope() {
        #expect(StoreEndpoint.appleGetTransactionInfo.bucketKey(scope: "com.example.app") == "apple:com.example.app:getTransactionInfo")
        #expect(StoreEndpoint.googleVoidedPurchasesList.bucketKey(scope: "com.example.app") == "google:com.example.app:voidedpurchases.list")
    }
}

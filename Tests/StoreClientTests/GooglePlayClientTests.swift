import BillingCore
import Foundation
import GooglePlay
import SimulatorFixtures
import StoreCalls
import StoreSimulator
import Testing

/// The Google Play client against the simulator: OAuth cached, each call decoded, each error classified.
@Suite struct GooglePlayClientTests {
    @Test func accessTokenIsFetchedOnceAndReused() throws {
        let harness = try ClientHarness()
        let first = try harness.google.subscription(token: "token-active")
        #expect(first.purchase.subscriptionStateValue == .active)
        #expect(first.purchase.items.first?.latestSuccessfulOrderId == "GPA.1111-2222-3333-44444")
        _ = try harness.google.subscription(token: "token-pending")
        _ = try harness.google.voidedPurchases(since: TruthFixture.now.addingTimeInterval(-29 * 86_400))
        #expect(harness.tokens.fetchCount == 1)
        #expect(harness.log.attempts.first?.endpoint == "google.oauth")
        harness.tokens.invalidate()
        _ = try harness.google.subscription(token: "token-active")
        #expect(harness.tokens.fetchCount == 2, "an invalidated token is fetched again")
    }

    @Test func expiredTokenIsGoneAndUnknownIsNotFound() throws {
        let harness = try ClientHarness()
        #expect(storeError(GooglePlayAPIError.self) { _ = try harness.google.subscription(token: "token-expired") }?.classification == .gone)
        #expect(storeError(GooglePlayAPIError.self) { _ = try harness.google.subscription(token: "no-such-token") }?.classification == .notFound)
        #expect(harness.log.attempts.filter { $0.endpoint == "google.subscriptionsv2.get" }.map(\.outcome) == ["gone", "not_found"])
    }

    @Test func acknowledgeChangesTheStoreButNeverForAPendingPurchase() throws {
        let harness = try ClientHarness()
        #expect(try harness.google.subscription(token: "token-active").purchase.acknowledgementStateValue == .pending)
        try harness.google.acknowledge(subscriptionId: "premium_monthly", token: "token-active")
        #expect(try harness.google.subscription(token: "token-active").purchase.acknowledgementStateValue == .acknowledged)
        let refused = storeError(GooglePlayAPIError.self) { try harness.google.acknowledge(subscriptionId: "premium_monthly", token: "token-pending") }
        #expect(refused?.classification == .invalidRequest, "a pending purchase cannot be acknowledged")
    }

    @Test func ordersAreDecodedWithTheirHistoryAndPayload() throws {
        let harness = try ClientHarness()
        let renewal = try harness.google.order(id: "GPA.1111-2222-3333-44444..0")
        #expect(renewal.order.state == "PARTIALLY_REFUNDED")
        #expect(try renewal.order.orderHistory?.partialRefundEvents?.first?.refundDetails?.total?.money()
                == Money(micros: 4_990_000, currencyCode: "USD"))
        #expect(String(decoding: renewal.raw, as: UTF8.self).contains("partialRefundEvents"))
        let both = try harness.google.orders(ids: ["GPA.1111-2222-3333-44444", "GPA.1111-2222-3333-44444..0", "GPA.1111-2222-3333-44444"])
        #expect(both.map(\.order.orderId) == ["GPA.1111-2222-3333-44444", "GPA.1111-2222-3333-44444..0"], "asked once each")
        #expect(both.allSatisfy { (try? JSONDecoder().decode(GoogleOrder.self, from: $0.raw)) == $0.order }, "each order keeps its own JSON")
        #expect(storeError(GooglePlayAPIError.self) { _ = try harness.google.order(id: "GPA.0000-0000-0000-00000") }?.classification == .notFound)
        #expect(harness.log.attempts.filter { $0.endpoint == "google.orders.get" }.map(\.outcome) == ["ok", "ok", "not_found"])
    }

    @Test func voidedPurchasesFollowEveryPage() throws {
        let harness = try ClientHarness()
        let all = try harness.google.voidedPurchases(since: TruthFixture.now.addingTimeInterval(-30 * 86_400), pageSize: 2)
        let tokens = all.compactMap(\.purchaseToken)
        #expect(all.count == 5, "the 40-day-old void is outside the window: \(tokens)")
        #expect(harness.log.attempts.filter { $0.endpoint == "google.voidedpurchases.list" }.count == 3)
    }
}

/// The OAuth token is refreshed shortly before it expires, not after.
@Suite struct GoogleTokenRefreshTests {
    @Test func tokenIsRefreshedWithinTheMarginBeforeExpiry() throws {
        let clock = ManualClock(TruthFixture.now)
        let harness = try ClientHarness(clock: clock.clock)
        _ = try harness.google.subscription(token: "token-active")
        clock.advance(by: 3600 - 61)
        _ = try harness.google.subscription(token: "token-active")
        #expect(harness.tokens.fetchCount == 1, "still valid for more than the 60 s margin")
        clock.advance(by: 2)
        _ = try harness.google.subscription(token: "token-active")
        #expect(harness.tokens.fetchCount == 2, "refreshed inside the margin")
    }
}

import Foundation
import Testing
@testable import BillingCore

/// A Google billing failure dated from the store's answers alone (issue 28): a recovery is never dated before the
/// failure it recovers (finding 4), and a grace state continues the paid period's entitlement interval instead of
/// opening one at an instant where nothing happened (finding 7). Each rule reads only the answer and the notification
/// projected with it, so the rows and the subscription are the same in every delivery order.
@Suite("Google: billing failures dated where they happened")
struct GoogleFailureDatingTests {
    static func instant(_ text: String) throws -> Date { try RFC3339Timestamp(text).date }

    static let orderBase = "GPA.3345-9812-4476-20931"

    /// A subscriptionsv2 answer of the monthly plan (9.99 USD, auto-renewing), with its notification when `type` is set.
    static func answer(_ state: String, signup: String, expiry: String, paidRenewal: Int?, latestRenewal: Int?,
                       notification type: Int?, at time: String) throws -> GoogleStoreState {
        var plan = AutoRenewingPlan()
        plan.autoRenewEnabled = true
        plan.recurringPrice = GoogleMoney(currencyCode: "USD", units: "9", nanos: 990_000_000)
        var item = SubscriptionPurchaseLineItem()
        item.productId = TestData.googlePlan.productId
        item.expiryTime = RFC3339Timestamp(date: try instant(expiry))
        item.autoRenewingPlan = plan
        item.latestSuccessfulOrderId = orderBase + (paidRenewal.map { "..\($0)" } ?? "")
        item.offerPhase = OfferPhase(basePrice: PresenceMarker())
        var purchase = SubscriptionPurchaseV2()
        purchase.startTime = RFC3339Timestamp(date: try instant(signup))
        purchase.rawSubscriptionState = state
        purchase.latestOrderId = orderBase + (latestRenewal.map { "..\($0)" } ?? "")
        purchase.rawAcknowledgementState = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
        purchase.regionCode = "US"
        purchase.lineItems = [item]
        let notification = try type.map { type in
            DeveloperNotification(packageName: "com.example.fitness",
                                  eventTimeMillis: Int64((try instant(time).timeIntervalSince1970 * 1_000).rounded()),
                                  subscriptionNotification: SubscriptionNotification(notificationType: type,
                                                                                     purchaseToken: TestData.googleToken))
        }
        return GoogleStoreState(purchaseToken: TestData.googleToken, purchase: purchase, notification: notification)
    }

    /// Projects the answers in turn as RTDNs (a nil `at` re-queries at `requeryAt`), feeding each outcome back.
    static func fold(_ states: [GoogleStoreState], requeryAt: Date? = nil) throws -> [ProjectionOutcome] {
        var current: SubscriptionSnapshot?
        var outcomes: [ProjectionOutcome] = []
        for state in states {
            let trigger = state.notification?.eventTime.map { TestData.webhook(at: $0.addingTimeInterval(60)) }
                ?? ProjectionTrigger(source: .requery, now: requeryAt ?? TestData.day(60))
            let outcome = try Projection.project(current: current, storeState: .google(state), trigger: trigger,
                                                 resolved: TestData.googleRefs())
            current = outcome.subscription
            outcomes.append(outcome)
        }
        return outcomes
    }

    // Finding 4. Signed up 01-31; the renewal ..0 paid until 03-31T13:00Z failed then (grace until 04-08); the retry
    // succeeded at 03-31T20:00Z: order ..1, whose period ends one month later, month-end clamped: 04-30T20:00Z.
    // 04-30 minus one month steps back to 03-30T20:00Z, before the failure; the period really began 03-31T20:00Z, the
    // latest start of a period ending 04-30T20:00Z not after the RTDN (03-31T20:00Z) nor the re-query (04-02).
    static let signup = "2025-01-31T13:00:00Z"
    static func paid() throws -> GoogleStoreState {
        try answer("SUBSCRIPTION_STATE_ACTIVE", signup: signup, expiry: "2025-03-31T13:00:00Z", paidRenewal: 0,
                   latestRenewal: 0, notification: 2, at: "2025-02-28T13:00:00Z")
    }
    static func grace() throws -> GoogleStoreState {
        try answer("SUBSCRIPTION_STATE_IN_GRACE_PERIOD", signup: signup, expiry: "2025-04-08T13:00:00Z", paidRenewal: 0,
                   latestRenewal: 1, notification: 6, at: "2025-03-31T13:00:00Z")
    }
    static func recovery(notified: Bool) throws -> GoogleStoreState {
        try answer("SUBSCRIPTION_STATE_ACTIVE", signup: signup, expiry: "2025-04-30T20:00:00Z", paidRenewal: 1,
                   latestRenewal: 1, notification: notified ? 1 : nil, at: "2025-03-31T20:00:00Z")
    }

    @Test("A recovery is never dated before the failure it recovers (RTDN, re-query, either order)")
    func recoveryFollowsItsFailure() throws {
        let inOrder = try Self.fold([Self.paid(), Self.grace(), Self.recovery(notified: true)])
        let graceRow = try #require(inOrder[1].transactions.first { $0.eventType == .enteredGracePeriod })
        #expect(graceRow.effectiveAt == (try Self.instant("2025-03-31T13:00:00Z")))
        let recoveredAt = try Self.instant("2025-03-31T20:00:00Z")
        let requeried = try Self.fold([Self.paid(), Self.grace(), Self.recovery(notified: false)],
                                      requeryAt: try Self.instant("2025-04-02T06:00:00Z"))
        let reversed = try Self.fold([Self.recovery(notified: true), Self.grace(), Self.paid()])
        for (path, outcome) in [("rtdn", inOrder[2]), ("requery", requeried[2]), ("reversed", reversed[0])] {
            let charges = outcome.transactions.filter { $0.orderId == Self.orderBase + "..1" && $0.charge != nil }
            #expect(charges.count == 1, "\(path): \(outcome.transactions.map(\.eventType))")
            for row in charges {
                #expect(row.effectiveAt >= graceRow.effectiveAt, "\(path): recovery dated \(row.effectiveAt), failure \(graceRow.effectiveAt)")
                #expect(row.effectiveAt == recoveredAt, "\(path)")
                #expect(row.charge?.startAt == recoveredAt, "\(path)")
                #expect(row.charge?.endAt == (try Self.instant("2025-04-30T20:00:00Z")), "\(path)")
            }
        }
        #expect(reversed.last?.subscription == inOrder.last?.subscription, "the same subscription in either order")
    }

    // Finding 7. Signed up 01-01T09:00Z; the renewal ..0 paid 02-01 → 03-01T09:00Z; it failed at 03-01T09:00Z (the
    // SUBSCRIPTION_IN_GRACE_PERIOD notification's eventTime) and Google extends expiryTime to the grace end 03-08.
    // expiryTime minus one month is 02-08, an instant where nothing happened.
    static func paidFebruary() throws -> GoogleStoreState {
        try answer("SUBSCRIPTION_STATE_ACTIVE", signup: "2025-01-01T09:00:00Z", expiry: "2025-03-01T09:00:00Z", paidRenewal: 0,
                   latestRenewal: 0, notification: 2, at: "2025-02-01T09:00:00Z")
    }
    static func graceMarch() throws -> GoogleStoreState {
        try answer("SUBSCRIPTION_STATE_IN_GRACE_PERIOD", signup: "2025-01-01T09:00:00Z", expiry: "2025-03-08T09:00:00Z",
                   paidRenewal: 0, latestRenewal: 1, notification: 6, at: "2025-03-01T09:00:00Z")
    }

    @Test("A grace state continues the paid period's entitlement interval to the grace end, in either order")
    func graceContinuesThePaidInterval() throws {
        let paidStart = try Self.instant("2025-02-01T09:00:00Z")
        let inOrder = try Self.fold([Self.paidFebruary(), Self.graceMarch()])
        #expect(inOrder[0].entitlement.validFrom == paidStart)
        #expect(inOrder[0].entitlement.validUntil == (try Self.instant("2025-03-01T09:00:00Z")))
        let grace = inOrder[1]
        #expect(grace.subscription.status == .inGracePeriod)
        #expect(grace.entitlement.isActive)
        // The same valid_from as the paid period's interval: the writer extends that interval (its upsert key) to the
        // grace end instead of ending it and opening 02-08 → 03-08.
        #expect(grace.entitlement.validFrom == paidStart)
        #expect(grace.subscription.currentPeriodStartAt == paidStart)
        #expect(grace.entitlement.validUntil == (try Self.instant("2025-03-08T09:00:00Z")))
        // Delivered first (the paid answer then stale), the grace answer gives the same subscription.
        let reversed = try Self.fold([Self.graceMarch(), Self.paidFebruary()])
        #expect(reversed[0].subscription.currentPeriodStartAt == paidStart)
        #expect(reversed[1].entitlement == grace.entitlement)
    }
}

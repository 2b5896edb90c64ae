import Foundation
@testable import BillingCore
import SeededRandom

/// Generates coherent Google RTDN + subscriptionsv2 histories (increasing eventTimeMillis) from a seed.
struct GoogleHistoryGenerator {
    var rng: SplitMix64
    var events: [GoogleStoreState] = []
    var clock = TestData.day(0)
    var renewals = -1
    var expiry = TestData.day(30)
    var state = "SUBSCRIPTION_STATE_ACTIVE"
    var autoRenew = true
    var cancelTime: Date?
    var trial = false
    var priceChangeState: String?
    /// The subscription ended because billing failed (expired after account hold).
    var billingFailure = false
    static let orderBase = "GPA.3301-0000-0000-77777"

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static func history(seed: UInt64) -> [GoogleStoreState] {
        var generator = GoogleHistoryGenerator(seed: seed)
        generator.trial = generator.rng.chance(40)
        if generator.trial { generator.expiry = TestData.day(7) }
        generator.emit(4, at: TestData.day(0))
        for _ in 0..<Int(generator.rng.next() % 14) where generator.state != "SUBSCRIPTION_STATE_EXPIRED" {
            generator.step()
        }
        return generator.events
    }

    mutating func step() {
        switch state {
        case "SUBSCRIPTION_STATE_ACTIVE":
            var options = ["renew", "cancel", "grace", "pause"]
            if priceChangeState == nil && !trial { options.append("increase") }
            if priceChangeState == "OUTSTANDING" { options.append("confirm") }
            switch rng.pick(options) {
            case "renew": renew(type: 2, at: expiry)
            case "cancel":
                state = "SUBSCRIPTION_STATE_CANCELED"
                autoRenew = false
                cancelTime = later(hours: 5)
                emit(3, at: cancelTime ?? clock)
            case "grace":
                state = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
                expiry = expiry.addingTimeInterval(3 * 86_400)
                emit(6, at: expiry.addingTimeInterval(-3 * 86_400))
            case "pause":
                state = "SUBSCRIPTION_STATE_PAUSED"
                emit(10, at: expiry)
            case "increase":
                priceChangeState = "OUTSTANDING"
                emit(19, at: later(hours: 30))
            default:
                priceChangeState = "CONFIRMED"
                emit(19, at: later(hours: 30))
            }
        case "SUBSCRIPTION_STATE_CANCELED":
            if rng.chance(40) {
                state = "SUBSCRIPTION_STATE_ACTIVE"
                autoRenew = true
                cancelTime = nil
                emit(7, at: later(hours: 10))
            } else {
                state = "SUBSCRIPTION_STATE_EXPIRED"
                emit(13, at: expiry)
            }
        case "SUBSCRIPTION_STATE_IN_GRACE_PERIOD", "SUBSCRIPTION_STATE_ON_HOLD":
            if rng.chance(50) { renew(type: 1, at: later(hours: 20)) } else if state == "SUBSCRIPTION_STATE_IN_GRACE_PERIOD" {
                state = "SUBSCRIPTION_STATE_ON_HOLD"
                emit(5, at: expiry)
            } else {
                state = "SUBSCRIPTION_STATE_EXPIRED"
                billingFailure = true
                emit(13, at: expiry.addingTimeInterval(30 * 86_400))
            }
        case "SUBSCRIPTION_STATE_PAUSED":
            renew(type: 2, at: expiry.addingTimeInterval(30 * 86_400))
        default:
            break
        }
    }

    mutating func later(hours: Double) -> Date { clock.addingTimeInterval(hours * 3_600) }

    mutating func renew(type: Int, at time: Date) {
        let start = max(time, clock.addingTimeInterval(60))
        renewals += 1
        trial = false
        state = "SUBSCRIPTION_STATE_ACTIVE"
        expiry = start.addingTimeInterval(30 * 86_400)
        if priceChangeState == "CONFIRMED" { priceChangeState = "APPLIED" }
        emit(type, at: start)
    }

    mutating func emit(_ type: Int, at time: Date) {
        clock = max(time, clock.addingTimeInterval(60))
        let order = Self.orderBase + (renewals >= 0 ? "..\(renewals)" : "")
        // latestOrderId names the latest order whatever its outcome: in grace, on hold and after a billing
        // failure that is the declined renewal after the last paid order.
        let declined = billingFailure || ["SUBSCRIPTION_STATE_IN_GRACE_PERIOD", "SUBSCRIPTION_STATE_ON_HOLD"].contains(state)
        let applied = priceChangeState == "APPLIED"
        var plan = AutoRenewingPlan()
        plan.autoRenewEnabled = autoRenew
        plan.recurringPrice = GoogleMoney(currencyCode: "USD", units: applied ? "12" : "9", nanos: 990_000_000)
        if let priceChangeState {
            plan.priceChangeDetails = SubscriptionItemPriceChangeDetails(
                newPrice: GoogleMoney(currencyCode: "USD", units: "12", nanos: 990_000_000), rawPriceChangeMode: "PRICE_INCREASE",
                rawPriceChangeState: priceChangeState,
                expectedNewPriceChargeTime: applied ? nil : RFC3339Timestamp(date: expiry))
        }
        var item = SubscriptionPurchaseLineItem()
        item.productId = TestData.googlePlan.productId
        item.expiryTime = RFC3339Timestamp(date: expiry)
        item.autoRenewingPlan = plan
        item.latestSuccessfulOrderId = order
        item.offerPhase = trial ? OfferPhase(freeTrial: PresenceMarker()) : OfferPhase(basePrice: PresenceMarker())
        var purchase = SubscriptionPurchaseV2()
        purchase.startTime = RFC3339Timestamp(date: TestData.day(0))
        purchase.rawSubscriptionState = state
        purchase.latestOrderId = declined ? Self.orderBase + "..\(renewals + 1)" : order
        purchase.rawAcknowledgementState = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
        purchase.regionCode = "US"
        purchase.lineItems = [item]
        if let cancelTime {
            purchase.canceledStateContext = CanceledStateContext(userInitiatedCancellation: UserInitiatedCancellation(
                cancelTime: RFC3339Timestamp(date: cancelTime)))
        }
        if billingFailure { purchase.canceledStateContext = CanceledStateContext(systemInitiatedCancellation: PresenceMarker()) }
        let millis = Int64((clock.timeIntervalSince1970 * 1_000).rounded())
        let notification = DeveloperNotification(
            packageName: "com.example.fitness", eventTimeMillis: millis,
            subscriptionNotification: SubscriptionNotification(notificationType: type, purchaseToken: TestData.googleToken))
        events.append(GoogleStoreState(purchaseToken: TestData.googleToken, purchase: purchase, notification: notification))
    }
}

extension GoogleHistoryGenerator {
    /// The same answers as older API versions give them: without `lineItems[].latestSuccessfulOrderId`.
    static func withoutSuccessfulOrderIds(_ states: [GoogleStoreState]) -> [GoogleStoreState] {
        states.map { state in
            var copy = state
            if let items = copy.purchase?.lineItems {
                copy.purchase?.lineItems = items.map { item in
                    var bare = item
                    bare.latestSuccessfulOrderId = nil
                    return bare
                }
            }
            return copy
        }
    }
}

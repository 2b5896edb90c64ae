import Foundation
@testable import BillingCore
import SeededRandom

/// Generates coherent Apple notification histories (increasing signedDate) from a seed.
struct AppleHistoryGenerator {
    enum Phase { case active, grace, hold, ended }

    var rng: SplitMix64
    var events: [AppleStoreState] = []
    var clock = TestData.day(0)
    var transactionNumber: Int64 = 0
    var periodStart = TestData.day(0)
    var periodEnd = TestData.day(30)
    var graceEnd: Date?
    var autoRenew = true
    var phase = Phase.active
    var price: Int64 = 9_990
    var newPrice: Int64?
    var increaseAccepted = false
    var trial = false
    var revocation: Date?

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static func history(seed: UInt64) -> [AppleStoreState] {
        var generator = AppleHistoryGenerator(seed: seed)
        generator.trial = generator.rng.chance(40)
        if generator.trial { generator.periodEnd = TestData.day(7) }
        generator.emit("SUBSCRIBED", "INITIAL_BUY", status: 1, at: TestData.day(0))
        for _ in 0..<Int(generator.rng.next() % 14) where generator.phase != .ended { generator.step() }
        return generator.events
    }

    mutating func step() {
        switch phase {
        case .active:
            var options = ["toggle", "toggle", "renew", "renew", "renew", "fail", "fail", "refund", "expire"]
            if !trial && newPrice == nil { options.append("increase") }
            if newPrice != nil && !increaseAccepted { options.append("accept") }
            switch rng.pick(options) {
            case "toggle":
                autoRenew.toggle()
                emit("DID_CHANGE_RENEWAL_STATUS", autoRenew ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED", status: 1, at: midPeriod())
            case "renew" where autoRenew && (newPrice == nil || increaseAccepted):
                renew(at: periodEnd, subtype: nil)
            case "fail" where autoRenew:
                phase = .grace
                graceEnd = periodEnd.addingTimeInterval(3 * 86_400)
                emit("DID_FAIL_TO_RENEW", "GRACE_PERIOD", status: 4, at: periodEnd)
            case "increase":
                newPrice = 12_990
                emit("PRICE_INCREASE", "PENDING", status: 1, at: midPeriod())
            case "accept":
                increaseAccepted = true
                emit("PRICE_INCREASE", "ACCEPTED", status: 1, at: midPeriod())
            case "refund":
                revocation = midPeriod()
                phase = .ended
                emit("REFUND", nil, status: 5, at: revocation ?? clock)
            default:
                phase = .ended
                // VOLUNTARY follows the subscriber's disable; an unconsented increase expires with auto-renew on.
                let subtype = autoRenew ? "PRICE_INCREASE" : "VOLUNTARY"
                emit("EXPIRED", subtype, status: 2, at: periodEnd)
            }
        case .grace:
            if rng.chance(50) { renew(at: clock.addingTimeInterval(86_400), subtype: "BILLING_RECOVERY") } else {
                phase = .hold
                emit("GRACE_PERIOD_EXPIRED", nil, status: 3, at: graceEnd ?? clock)
            }
        case .hold:
            if rng.chance(50) { renew(at: clock.addingTimeInterval(5 * 86_400), subtype: "BILLING_RECOVERY") } else {
                phase = .ended
                emit("EXPIRED", "BILLING_RETRY", status: 2, at: clock.addingTimeInterval(55 * 86_400))
            }
        case .ended:
            break
        }
    }

    mutating func renew(at time: Date, subtype: String?) {
        let start = max(time, clock.addingTimeInterval(60))
        periodStart = start
        periodEnd = start.addingTimeInterval(30 * 86_400)
        transactionNumber += 1
        trial = false
        phase = .active
        graceEnd = nil
        if let newPrice, increaseAccepted {
            price = newPrice
            self.newPrice = nil
            increaseAccepted = false
        }
        emit("DID_RENEW", subtype, status: 1, at: start)
    }

    mutating func midPeriod() -> Date {
        max(clock.addingTimeInterval(3_600), periodStart.addingTimeInterval(Double(rng.next() % 20 + 1) * 3_600))
    }

    mutating func emit(_ type: String, _ subtype: String?, status: Int, at time: Date) {
        clock = max(time, clock.addingTimeInterval(60))
        let original = "2000000900000000"
        var transaction = JWSTransactionDecodedPayload()
        transaction.originalTransactionId = original
        transaction.transactionId = transactionNumber == 0 ? original : "20000009\(String(100_000_000 + transactionNumber))"
        transaction.productId = TestData.applePlan.productId
        transaction.purchaseDate = AppleTimestamp(date: periodStart)
        transaction.expiresDate = AppleTimestamp(date: periodEnd)
        transaction.signedDate = AppleTimestamp(date: clock)
        transaction.rawEnvironment = "Production"
        transaction.currency = "USD"
        transaction.price = trial ? 0 : price
        transaction.appAccountToken = TestData.appleToken
        if trial {
            transaction.rawOfferType = 1
            transaction.rawOfferDiscountType = "FREE_TRIAL"
        }
        transaction.revocationDate = revocation.map { AppleTimestamp(date: $0) }
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = original
        renewal.autoRenewStatus = autoRenew ? 1 : 0
        renewal.productId = transaction.productId
        renewal.autoRenewProductId = transaction.productId
        renewal.currency = "USD"
        renewal.renewalPrice = newPrice ?? price
        renewal.rawPriceIncreaseStatus = newPrice == nil ? nil : (increaseAccepted ? 1 : 0)
        renewal.renewalDate = AppleTimestamp(date: periodEnd)
        renewal.isInBillingRetryPeriod = phase == .grace || phase == .hold
        renewal.gracePeriodExpiresDate = graceEnd.map { AppleTimestamp(date: $0) }
        renewal.signedDate = AppleTimestamp(date: clock)
        var data = NotificationData()
        data.rawStatus = status
        data.rawEnvironment = "Production"
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: "uuid-\(events.count)",
            signedDate: AppleTimestamp(date: clock), data: data)
        events.append(AppleStoreState(notification: notification, transaction: transaction, renewalInfo: renewal))
    }
}

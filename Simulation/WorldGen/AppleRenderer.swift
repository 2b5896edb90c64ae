import Foundation
import BillingCore
import Crypto
import StoreTruth

/// Turns an Apple story into notifications (with the transaction and renewal info of their time),
/// the subscription's final truth, and the events the webhook path projected.
struct AppleRenderer {
    let catalogue: WorldCatalogue
    let ids: WorldIdentifiers
    let asOfMs: Int64

    struct Output {
        var truth: AppleSubscriptionTruth
        var notifications: [AppleNotificationTruth] = []
        var events: [WorldEvent] = []
    }

    func render(_ story: Story, accountToken: String) -> Output {
        let market = catalogue.markets[story.market]
        let environment = story.isTest ? "Sandbox" : "Production"
        let original = ids.appleTransactionId(subscription: story.index, ordinal: 0)
        let first = story.steps[0]
        var transactions: [AppleTransactionFields] = []
        var renewal = AppleRenewalFields(
            originalTransactionId: original, productId: product(first.plan), autoRenewProductId: product(first.plan),
            autoRenewOn: true, signedMs: first.atMs, environment: environment, recentStartMs: first.atMs,
            renewalMs: first.periodEndMs, currency: market.currency,
            renewalPriceMilli: catalogue.price(plan: first.plan, market: story.market, atMs: first.atMs, isApple: story.isApple) / 1_000,
            appAccountToken: accountToken)
        var status = 1
        var output = Output(truth: AppleSubscriptionTruth(originalTransactionId: original,
                                                          subscriptionGroupIdentifier: catalogue.subscriptionGroupIdentifier,
                                                          status: 1, transactions: [], renewalInfo: .null))
        func charge(_ step: TimedStep, reason: String, trial: Bool, offerCode: String? = nil) {
            let ordinal = transactions.count
            transactions.append(AppleTransactionFields(
                transactionId: ids.appleTransactionId(subscription: story.index, ordinal: ordinal), originalTransactionId: original,
                webOrderLineItemId: ids.webOrderLineItemId(subscription: story.index, ordinal: ordinal), productId: product(step.plan),
                purchaseMs: step.atMs, originalPurchaseMs: first.atMs, expiresMs: step.periodEndMs, signedMs: step.atMs,
                appAccountToken: accountToken, familyShared: story.familyShared, environment: environment, reason: reason,
                storefront: market.appleStorefront, storefrontId: market.appleStorefrontId, currency: market.currency,
                priceMilli: step.priceMicros / 1_000, trial: trial, offerCode: offerCode))
            renewal.productId = product(step.plan)
            renewal.autoRenewProductId = product(step.plan)
            renewal.renewalMs = step.periodEndMs
            renewal.renewalPriceMilli = catalogue.price(plan: step.plan, market: story.market, atMs: step.atMs,
                                                        isApple: story.isApple) / 1_000
            renewal.inBillingRetry = false
            renewal.graceExpiresMs = nil
            renewal.priceIncreaseStatus = nil
            renewal.expirationIntent = nil
            status = 1
        }
        for step in story.steps {
            var type: String
            var subtype: String?
            var revocation = false
            switch step.step {
            case .purchase(let trial):
                let code = trial && OfferCodeRedemption.redeems(storyIndex: story.index, seed: ids.seed)
                charge(step, reason: "PURCHASE", trial: trial && !code, offerCode: code ? OfferCodeRedemption.offerIdentifier : nil)
                renewal.renewalPriceMilli = step.priceMicros / 1_000
                if trial {
                    renewal.renewalPriceMilli = catalogue.price(plan: step.plan, market: story.market, atMs: step.periodEndMs,
                                                                isApple: story.isApple) / 1_000
                }
                (type, subtype) = ("SUBSCRIBED", "INITIAL_BUY")
            case .renew:
                charge(step, reason: "RENEWAL", trial: false)
                (type, subtype) = ("DID_RENEW", nil)
            case .recover:
                charge(step, reason: "RENEWAL", trial: false)
                (type, subtype) = ("DID_RENEW", "BILLING_RECOVERY")
            case .upgrade:
                if !transactions.isEmpty { transactions[transactions.count - 1].isUpgraded = true }
                charge(step, reason: "PURCHASE", trial: false)
                (type, subtype) = ("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
            case .downgradeScheduled(let plan):
                renewal.autoRenewProductId = product(plan)
                renewal.renewalPriceMilli = catalogue.price(plan: plan, market: story.market, atMs: step.periodEndMs,
                                                            isApple: story.isApple) / 1_000
                (type, subtype) = ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")
            case .autoRenewOff:
                renewal.autoRenewOn = false
                (type, subtype) = ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")
            case .autoRenewOn:
                renewal.autoRenewOn = true
                (type, subtype) = ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED")
            case .enterGrace(let graceEnd):
                renewal.inBillingRetry = true
                renewal.graceExpiresMs = graceEnd
                status = 4
                (type, subtype) = ("DID_FAIL_TO_RENEW", "GRACE_PERIOD")
            case .enterHold:
                status = 3
                (type, subtype) = ("GRACE_PERIOD_EXPIRED", nil)
            case .expire(let reason):
                renewal.inBillingRetry = false
                renewal.graceExpiresMs = nil
                switch reason {
                case .voluntary: (renewal.expirationIntent, subtype) = (1, "VOLUNTARY")
                case .billing: (renewal.expirationIntent, subtype) = (2, "BILLING_RETRY")
                case .priceIncrease: (renewal.expirationIntent, subtype) = (3, "PRICE_INCREASE")
                }
                if reason != .billing { renewal.autoRenewOn = false }
                status = 2
                type = "EXPIRED"
            case .priceNotice(let change):
                renewal.renewalPriceMilli = catalogue.priceChanges[change].newMicros / 1_000
                renewal.priceIncreaseStatus = 0
                (type, subtype) = ("PRICE_INCREASE", "PENDING")
            case .priceAccept:
                renewal.priceIncreaseStatus = 1
                (type, subtype) = ("PRICE_INCREASE", "ACCEPTED")
            case .refund, .familyRevoke:
                let family = step.step == .familyRevoke
                transactions[transactions.count - 1].revocationMs = step.atMs
                let refunded = transactions[transactions.count - 1]
                let prorated = family ? nil : ProratedRefund.applePercentage(atMs: step.atMs, chargeMicros: refunded.priceMilli * 1_000,
                                                                             currency: refunded.currency)
                transactions[transactions.count - 1].revocationType = family ? "FAMILY_REVOKE" : prorated == nil ? "REFUND_FULL" : "REFUND_PRORATED"
                transactions[transactions.count - 1].revocationPercentage = prorated
                transactions[transactions.count - 1].revocationReason = family ? 0 : Int(step.atMs % 2)
                status = 5
                revocation = true
                (type, subtype) = family ? ("REVOKE", nil) : ("REFUND", nil)
            case .pendingStart, .pendingCanceled:
                continue
            }
            renewal.signedMs = step.atMs
            transactions[transactions.count - 1].signedMs = step.atMs
            let latest = transactions[transactions.count - 1]
            let ordinal = output.notifications.count
            let uuid = ids.uuid(.notification, story.index, ordinal)
            let signed = step.atMs + 1_000 + Int64(ordinal % 3) * 1_000
            let data: JSONValue = .object([
                "environment": .string(environment), "appAppleId": .integer(catalogue.appAppleId),
                "bundleId": .string(catalogue.bundleId), "bundleVersion": .string("7.4.1"), "status": .integer(Int64(status)),
            ])
            var payloadMembers: [String: JSONValue] = [
                "notificationType": .string(type), "notificationUUID": .string(uuid), "version": .string("2.0"),
                "signedDate": .integer(signed), "data": data,
            ]
            if let subtype { payloadMembers["subtype"] = .string(subtype) }
            let payload = JSONValue.object(payloadMembers)
            let transactionJSON = latest.json(bundleId: catalogue.bundleId, group: catalogue.subscriptionGroupIdentifier)
            let renewalJSON = renewal.json()
            output.notifications.append(AppleNotificationTruth(
                payload: payload, transactionInfo: transactionJSON, renewalInfo: renewalJSON,
                sendAttempts: [.object(["attemptDate": .integer(signed + 400), "sendAttemptResult": .string("SUCCESS")])]))
            var notification = ResponseBodyV2DecodedPayload(notificationType: type, subtype: subtype, notificationUUID: uuid,
                                                            signedDate: AppleTimestamp(milliseconds: Double(signed)))
            var notificationData = NotificationData()
            notificationData.rawEnvironment = environment
            notificationData.appAppleId = catalogue.appAppleId
            notificationData.bundleId = catalogue.bundleId
            notificationData.bundleVersion = "7.4.1"
            notificationData.rawStatus = status
            notification.data = notificationData
            let state = AppleStoreState(notification: notification,
                                        transaction: latest.model(bundleId: catalogue.bundleId, group: catalogue.subscriptionGroupIdentifier),
                                        renewalInfo: renewal.model(),
                                        rawPayload: Array(JSONText.serialize(.object(["notificationUUID": .string(uuid)])).utf8).data)
            let received = signed + 500
            let inbound = InboundRow(
                id: ids.uuid(.inboundEvent, story.index, ordinal), provider: "APPLE", providerEventId: uuid, businessKey: nil,
                environment: environment.uppercased(),
                payload: .object(["notification": payload, "transactionInfo": transactionJSON, "renewalInfo": renewalJSON]),
                receivedAtMs: received, processedAtMs: received + 250)
            var event = WorldEvent(atMs: step.atMs, path: .webhook, label: "APPLE:\(type)" + (subtype.map { "/" + $0 } ?? ""),
                                   state: .apple(state), productId: latest.productId, basePlanId: "", offerId: "", inbound: inbound)
            event.appleNotification = ordinal
            event.isRevocation = revocation
            output.events.append(event)
        }
        if let last = transactions.indices.last { transactions[last].signedMs = asOfMs }
        renewal.signedMs = asOfMs
        output.truth.status = status
        output.truth.transactions = transactions.map { $0.json(bundleId: catalogue.bundleId, group: catalogue.subscriptionGroupIdentifier) }
        output.truth.renewalInfo = renewal.json()
        return output
    }

    private func product(_ plan: Int) -> String { catalogue.plans[plan].appleProductId }
}

extension Array where Element == UInt8 {
    /// The bytes as `Data`.
    var data: Foundation.Data { Foundation.Data(self) }
}

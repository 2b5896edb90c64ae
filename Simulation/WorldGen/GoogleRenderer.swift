import BillingCore
import Crypto
import Foundation
import StoreTruth

/// Turns a Google story into RTDNs with the SubscriptionPurchaseV2 of their time, the final token
/// truths, voided purchases, and the events the webhook path and the voided-purchase sweep projected.
struct GoogleRenderer {
    let catalogue: WorldCatalogue
    let ids: WorldIdentifiers
    let asOfMs: Int64
    /// One decoder per subscription rendered (decoding the purchase at every event).
    let decoder = JSONDecoder()

    struct Output {
        var tokens: [GoogleSubscriptionTruth] = []
        var voided: [JSONValue] = []
        var events: [WorldEvent] = []
    }

    func render(_ story: Story, accountToken: String, skipAcknowledgement: Bool = false) throws -> Output {
        let first = story.steps[0]
        var tokens: [GoogleTokenState] = [newToken(story, ordinal: 0, plan: first.plan, accountToken: accountToken)]
        var output = Output()
        var chargeTimes: [String: Int64] = [:]
        var book = GoogleOrderBook(packageName: catalogue.packageName, seed: ids.seed)
        for step in story.steps {
            var current = tokens[tokens.count - 1]
            var type: Int?
            switch step.step {
            case .pendingStart:
                current.recurringMicros = catalogue.price(plan: step.plan, market: story.market, atMs: step.atMs,
                                                           isApple: story.isApple)
            case .pendingCanceled:
                current.state = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"
                type = 20
            case .purchase(let trial):
                current.state = "SUBSCRIPTION_STATE_ACTIVE"
                current.startMs = step.atMs
                current.expiryMs = step.periodEndMs
                current.trial = trial
                current.offerId = trial ? catalogue.plans[step.plan].googleTrialOfferId : nil
                current.recurringMicros = catalogue.price(plan: step.plan, market: story.market, atMs: step.atMs,
                                                           isApple: story.isApple)
                current.hasOrder = true
                type = 4
            case .upgrade(let plan):
                var old = current
                old.state = "SUBSCRIPTION_STATE_EXPIRED"
                old.autoRenew = false
                old.cancelContext = .object(["replacementCancellation": .object([:])])
                tokens[tokens.count - 1] = old
                current = newToken(story, ordinal: tokens.count, plan: plan, accountToken: accountToken)
                current.linkedToken = old.token
                current.state = "SUBSCRIPTION_STATE_ACTIVE"
                current.startMs = step.atMs
                current.expiryMs = step.periodEndMs
                current.recurringMicros = step.priceMicros
                current.hasOrder = true
                tokens.append(current)
                type = 4
            case .renew, .recover:
                current.state = "SUBSCRIPTION_STATE_ACTIVE"
                current.renewals = (current.renewals ?? -1) + 1
                current.expiryMs = step.periodEndMs
                current.trial = false
                current.offerId = nil
                current.autoRenew = true
                current.cancelContext = nil
                if let change = current.priceChange, change.state != "APPLIED", step.priceMicros == change.newMicros {
                    current.priceChange?.state = "APPLIED"
                }
                current.recurringMicros = step.priceMicros
                type = step.step == .renew ? 2 : 1
            case .autoRenewOff(let system):
                current.state = "SUBSCRIPTION_STATE_CANCELED"
                current.autoRenew = false
                if system {
                    current.cancelContext = .object(["systemInitiatedCancellation": .object([:])])
                    current.priceChange?.state = "CANCELED"
                } else {
                    current.cancelContext = .object(["userInitiatedCancellation": .object([
                        "cancelTime": .string(WorldClock.rfc3339(step.atMs)),
                        "cancelSurveyResult": .object(["reason": .string("CANCEL_SURVEY_REASON_NOT_ENOUGH_USAGE")])])])
                }
                type = 3
            case .autoRenewOn:
                current.state = "SUBSCRIPTION_STATE_ACTIVE"
                current.autoRenew = true
                current.cancelContext = nil
                type = 7
            case .enterGrace(let graceEnd):
                current.state = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
                current.expiryMs = graceEnd
                type = 6
            case .enterHold:
                current.state = "SUBSCRIPTION_STATE_ON_HOLD"
                current.expiryMs = step.periodEndMs
                type = 5
            case .expire(let reason):
                current.state = "SUBSCRIPTION_STATE_EXPIRED"
                current.autoRenew = false
                if reason != .voluntary { current.cancelContext = .object(["systemInitiatedCancellation": .object([:])]) }
                type = 13
            case .priceNotice(let index):
                let change = catalogue.priceChanges[index]
                current.priceChange = (change.newMicros, change.mode.rawValue, "OUTSTANDING", step.periodEndMs)
                type = 19
            case .priceAccept:
                current.priceChange?.state = "CONFIRMED"
                type = 8
            case .refund(let chargeback):
                current.state = "SUBSCRIPTION_STATE_EXPIRED"
                current.autoRenew = false
                let order = current.latestOrderId ?? current.orderBase
                let voided: JSONValue = .object([
                    "kind": .string("androidpublisher#voidedPurchase"), "purchaseToken": .string(current.token),
                    "orderId": .string(order), "purchaseTimeMillis": .string(String(chargeTimes[order] ?? step.atMs)),
                    "voidedTimeMillis": .string(String(step.atMs)), "voidedSource": .integer(chargeback ? 2 : 0),
                    "voidedReason": .integer(chargeback ? 7 : 1), "voidedQuantity": .integer(1),
                ])
                output.voided.append(voided)
                book.refund(order, currency: current.currency, atMs: step.atMs)
                tokens[tokens.count - 1] = current
                let purchase = try decode(current)
                var void = VoidedPurchase(purchaseToken: current.token, orderId: order, voidedTimeMillis: step.atMs,
                                          voidedReason: chargeback ? 7 : 1, voidedSource: chargeback ? 2 : 0)
                void.purchaseTimeMillis = chargeTimes[order]
                let state = GoogleStoreState(purchaseToken: current.token, purchase: purchase, voidedPurchase: void,
                                             rawPayload: Data(JSONText.serialize(.object(["voidedOrderId": .string(order)])).utf8))
                var event = WorldEvent(atMs: step.atMs, path: .sweep, label: "GOOGLE:VOIDED", state: .google(state),
                                       productId: current.productId, basePlanId: current.basePlanId, offerId: current.offerId ?? "")
                event.isRevocation = true
                output.events.append(event)
            case .downgradeScheduled, .familyRevoke:
                break
            }
            if let order = current.latestOrderId, chargeTimes[order] == nil {
                chargeTimes[order] = step.atMs
                book.charge(order, token: current, atMs: step.atMs, periodEndMs: current.expiryMs)
            }
            tokens[tokens.count - 1] = current
            guard let type else { continue }
            var event = try rtdn(type: type, token: current, story: story, at: step.atMs, ordinal: output.events.count)
            if type == 4 && !skipAcknowledgement {
                tokens[tokens.count - 1].acknowledged = true
                event.acknowledgeAfter = true
            }
            output.events.append(event)
        }
        output.tokens = tokens.map { token in
            let ended = ["SUBSCRIPTION_STATE_EXPIRED", "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"].contains(token.state)
            let queryable = !(ended && (token.expiryMs ?? token.startMs ?? asOfMs) < asOfMs - 60 * WorldClock.day)
            return GoogleSubscriptionTruth(purchaseToken: token.token, purchase: token.json(packageName: catalogue.packageName),
                                           queryable: queryable, orders: book.orders[token.token] ?? [])
        }
        return output
    }

    func newToken(_ story: Story, ordinal: Int, plan: Int, accountToken: String) -> GoogleTokenState {
        let market = catalogue.markets[story.market]
        return GoogleTokenState(
            token: ids.purchaseToken(subscription: story.index, ordinal: ordinal), recurringMicros: 0, currency: market.currency,
            productId: catalogue.plans[plan].googleProductId, basePlanId: catalogue.plans[plan].googleBasePlanId,
            orderBase: ids.orderId(subscription: story.index, ordinal: ordinal), region: market.googleRegion,
            accountToken: accountToken, isTest: story.isTest)
    }

    func rtdn(type: Int, token: GoogleTokenState, story: Story, at: Int64, ordinal: Int) throws -> WorldEvent {
        let notificationJSON: JSONValue = .object([
            "version": .string("1.0"), "packageName": .string(catalogue.packageName), "eventTimeMillis": .string(String(at)),
            "subscriptionNotification": .object(["version": .string("1.0"), "notificationType": .integer(Int64(type)),
                                                 "purchaseToken": .string(token.token)]),
        ])
        let messageId = ids.messageId(subscription: story.index, ordinal: ordinal)
        let notification = DeveloperNotification(packageName: catalogue.packageName, eventTimeMillis: at,
                                                 subscriptionNotification: SubscriptionNotification(notificationType: type, purchaseToken: token.token))
        let state = GoogleStoreState(purchaseToken: token.token, purchase: try decode(token), notification: notification,
                                     rawPayload: Data(JSONText.serialize(.object(["messageId": .string(messageId)])).utf8))
        let received = at + 800
        let inbound = InboundRow(id: ids.uuid(.inboundEvent, story.index, ordinal), provider: "GOOGLE", providerEventId: messageId,
                                 businessKey: "\(token.token):\(type):\(at)", environment: "UNKNOWN", payload: notificationJSON,
                                 receivedAtMs: received, processedAtMs: received + 700)
        let name = GoogleNotificationType(rawValue: type).map { "\($0)" } ?? "unknown"
        return WorldEvent(atMs: at, path: .webhook, label: "GOOGLE:\(type) \(name)", state: .google(state),
                          productId: token.productId, basePlanId: token.basePlanId, offerId: token.offerId ?? "", inbound: inbound)
    }

    func decode(_ token: GoogleTokenState) throws -> SubscriptionPurchaseV2 {
        try decoder.decode(SubscriptionPurchaseV2.self, from: Data(JSONText.bytes(token.json(packageName: catalogue.packageName))))
    }
}

import AppStore
import BillingCore
import Crypto
import Foundation
import GooglePlay
import JobKit
import Postgres
import ProjectionStore
import StoreCalls

/// Replays one stored webhook: re-queries the store for the subscription it concerns (the store is the truth, the
/// notification decides the event), projects through the one writer and marks the event processed in the same
/// transaction.
struct ReplayEventProcessor {
    let database: PostgresConnection
    let writer: ProjectionWriter
    let stores: StoreClientSet
    let verifiers: AppleVerifiers?
    let asOf: Date
    /// True for events stored by recover-notifications: the trigger is then `.notificationHistory`.
    var recovered = false

    /// Processes `event`; never throws: every failure comes back as `.failed` with a reason naming the event.
    func process(_ event: InboundEvent) -> ReplayOutcome {
        do {
            switch event.provider {
            case "APPLE": return try replayApple(event)
            case "GOOGLE": return try replayGoogle(event)
            default: return .skipped("provider \(event.provider) has no replay")
            }
        } catch {
            return .failed(ItemFailure(error))
        }
    }

    private func replayApple(_ event: InboundEvent) throws -> ReplayOutcome {
        let payload = try InboundPayloads.apple(event, verifiers: verifiers)
        let notification = payload.notification
        guard let type = notification.notificationTypeValue else {
            return .skipped("unknown notification type \(notification.rawNotificationType ?? "nil")")
        }
        if type == .test { return .skipped("test notification") }
        guard let original = payload.transaction?.originalTransactionId else { return .skipped("no transaction in the notification") }
        guard stores.apple != nil else { throw ItemFailure("event \(event.id): Apple is not configured", kind: .notConfigured) }
        let subscriptionId = try database.query(
            "SELECT subscription_id::text AS id FROM apple_subscription_identity WHERE original_transaction_id = $1", [original]
        ).first?.decode(String.self, "id")
        let entries: [DecodedLastTransactionsItem]
        do {
            entries = try AttemptContext.$subscriptionId.withValue(subscriptionId) {
                try stores.appleStatuses(originalTransactionId: original, sandbox: event.environment == "SANDBOX")
            }
        } catch {
            throw ItemFailure("event \(event.id): Get All Subscription Statuses for \(Redaction.mask(original)) failed", causedBy: error)
        }
        guard let entry = entries.first(where: { ($0.originalTransactionId ?? $0.transactionInfo.originalTransactionId) == original }) else {
            throw ItemFailure("event \(event.id): the store's statuses hold no entry for \(Redaction.mask(original))")
        }
        if let told = payload.transaction, told.transactionId != entry.transactionInfo.transactionId,
           let toldStart = told.purchaseDate, let answeredStart = entry.transactionInfo.purchaseDate, toldStart > answeredStart {
            // The projection takes the store's answer as the state; one older than the signed notification would
            // mark the event processed without its transaction. Leave it for the next run instead.
            throw ItemFailure("event \(event.id): the store's latest transaction for \(Redaction.mask(original)) began before the "
                              + "notification's; left for the next run", kind: .storeBehind)
        }
        let state = AppleStoreState(statusEntry: entry, notification: notification, rawPayload: Data(event.payload.utf8))
        return try project(.apple(state), event)
    }

    private func replayGoogle(_ event: InboundEvent) throws -> ReplayOutcome {
        let notification = try InboundPayloads.google(event)
        if notification.testNotification != nil { return .skipped("test notification") }
        guard let token = notification.subscriptionNotification?.purchaseToken ?? notification.voidedPurchaseNotification?.purchaseToken else {
            return .skipped("no subscription purchase token in the notification")
        }
        if notification.subscriptionNotification == nil, notification.voidedPurchaseNotification?.productType == 2 {
            return .skipped("voided one-time product")
        }
        guard let google = stores.google else { throw ItemFailure("event \(event.id): Google Play is not configured", kind: .notConfigured) }
        let subscriptionId = try database.query(
            "SELECT subscription_id::text AS id FROM google_purchase_token WHERE purchase_token = $1", [token]
        ).first?.decode(String.self, "id")
        let answer: (purchase: SubscriptionPurchaseV2, raw: Data)
        do {
            answer = try AttemptContext.$subscriptionId.withValue(subscriptionId) { try google.subscription(token: token) }
        } catch let error as StoreCallError where Self.isGone(error) {
            return .gone(ItemFailure("event \(event.id): token \(Redaction.mask(token)) is no longer queryable at Google (410)", causedBy: error))
        } catch {
            throw ItemFailure("event \(event.id): subscriptionsv2.get for token \(Redaction.mask(token)) failed", causedBy: error)
        }
        let state = GoogleStoreState(purchaseToken: token, purchase: answer.purchase, notification: notification,
                                     rawPayload: Data(event.payload.utf8))
        return try project(.google(state), event)
    }

    /// True for Google's 410: the purchase expired too long ago to be queried.
    static func isGone(_ error: StoreCallError) -> Bool {
        if case .store(let inner) = error, let api = inner as? GooglePlayAPIError, api.classification == .gone { return true }
        return false
    }

    private func source(_ event: InboundEvent) -> TriggerSource {
        recovered ? .notificationHistory(inboundEventId: event.id) : .webhook(inboundEventId: event.id)
    }

    private func project(_ state: StoreState, _ event: InboundEvent) throws -> ReplayOutcome {
        do {
            let result = try writer.project(state, trigger: ProjectionTrigger(source: source(event), now: asOf)) { db, _ in
                try ReplayEvents.markProcessed(db, eventId: event.id, at: asOf)
            }
            return .projected(created: result.created)
        } catch {
            throw ItemFailure("event \(event.id): projection failed", causedBy: error)
        }
    }
}

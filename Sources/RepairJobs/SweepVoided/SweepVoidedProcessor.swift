import BillingCore
import Foundation
import GooglePlay
import JobKit
import Postgres
import ProjectionStore
import StoreCalls

/// Applies one voided purchase: finds its subscription by purchase token, re-queries the token when Google still
/// answers for it (410: projected without a purchase), and projects the void (refund or chargeback rows, entitlement
/// revoked) with trigger `.voidedPurchaseSweep`. Transaction keys are unique, so applying a void twice inserts nothing.
struct SweepVoidedProcessor {
    let database: PostgresConnection
    let writer: ProjectionWriter
    let google: GooglePlayClient
    let asOf: Date
    let dryRun: Bool

    /// Processes `voided`; never throws: every failure comes back as `.failed` with a reason naming the token.
    func process(_ voided: VoidedPurchase) -> SweepVoidedOutcome {
        guard let token = voided.purchaseToken, !token.isEmpty else { return .unknownToken }
        do {
            guard let subscriptionId = try database.query(
                "SELECT subscription_id::text AS id FROM google_purchase_token WHERE purchase_token = $1", [token]
            ).first?.decode(String.self, "id") else { return .unknownToken }
            if dryRun { return .wouldProject }
            let purchase: SubscriptionPurchaseV2?
            do {
                purchase = try AttemptContext.$subscriptionId.withValue(subscriptionId) { try google.subscription(token: token).purchase }
            } catch let error as StoreCallError where ReplayEventProcessor.isGone(error) {
                purchase = nil
            } catch {
                return .failed(ItemFailure("voided order \(voided.orderId ?? "nil"): subscriptionsv2.get for token \(Redaction.mask(token)) failed", causedBy: error))
            }
            let state = GoogleStoreState(purchaseToken: token, purchase: purchase, voidedPurchase: voided, rawPayload: try Self.payload(voided))
            let result = try writer.project(.google(state), trigger: ProjectionTrigger(source: .voidedPurchaseSweep, now: asOf))
            return .projected(inserted: result.insertedTransactions)
        } catch {
            return .failed(ItemFailure("voided order \(voided.orderId ?? "nil") (token \(Redaction.mask(token)))", causedBy: error))
        }
    }

    /// The voided purchase as JSON (copied into the history rows); an encoding failure throws, never `{}`.
    static func payload(_ voided: VoidedPurchase) throws(VoidedPurchasePayloadError) -> Data {
        try VoidedPurchasePayload(voided).encoded()
    }
}

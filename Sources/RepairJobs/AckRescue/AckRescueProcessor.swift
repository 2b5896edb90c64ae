import BillingCore
import Foundation
import GooglePlay
import JobKit
import ProjectionStore
import StoreCalls

/// Rescues one pending acknowledgement: re-queries the purchase, repairs the database when the store already
/// acknowledged it, acknowledges a paid purchase the store still holds pending, and never acknowledges an unpaid one.
struct AckRescueProcessor {
    let writer: ProjectionWriter
    let google: GooglePlayClient
    let asOf: Date
    let dryRun: Bool

    /// Processes `candidate`; never throws: every failure comes back as `.failed` with a reason naming it.
    func process(_ candidate: AckRescueCandidate) -> AckRescueOutcome {
        let id = candidate.subscriptionId
        return AttemptContext.$subscriptionId.withValue(id) {
            do {
                guard let first = try query(candidate) else { return .gone }
                switch first.purchase.acknowledgementStateValue {
                case .acknowledged?:
                    if dryRun { return .wouldRepair }
                    try project(candidate, first)
                    return .repaired
                case .pending?:
                    guard Self.isPaid(first.purchase) else { return .skippedUnpaid }
                    guard let productId = first.purchase.items.lazy.compactMap(\.productId).first else {
                        return .failed(ItemFailure("subscription \(id): the purchase has no line item with a productId to acknowledge"))
                    }
                    if dryRun { return .wouldAcknowledge }
                    do {
                        try google.acknowledge(subscriptionId: productId, token: candidate.purchaseToken)
                    } catch {
                        return .failed(ItemFailure("subscription \(id): acknowledge of token \(Redaction.mask(candidate.purchaseToken)) failed", causedBy: error))
                    }
                    guard let second = try query(candidate) else { return .gone }
                    guard second.purchase.acknowledgementStateValue == .acknowledged else {
                        return .failed(ItemFailure("subscription \(id): the store still reports \(second.purchase.rawAcknowledgementState ?? "no") acknowledgement after acknowledge"))
                    }
                    try project(candidate, second)
                    return .acknowledged
                default:
                    return .failed(ItemFailure("subscription \(id): unexpected acknowledgementState \(first.purchase.rawAcknowledgementState ?? "nil")"))
                }
            } catch {
                return .failed(ItemFailure("subscription \(id)", causedBy: error))
            }
        }
    }

    /// True unless the purchase is still awaiting payment (or its pending purchase was canceled before payment).
    static func isPaid(_ purchase: SubscriptionPurchaseV2) -> Bool {
        switch purchase.subscriptionStateValue {
        case .pending?, .pendingPurchaseCanceled?: return false
        default: return purchase.rawSubscriptionState != nil
        }
    }

    /// subscriptionsv2.get; nil for Google's 410.
    private func query(_ candidate: AckRescueCandidate) throws -> (purchase: SubscriptionPurchaseV2, raw: Data)? {
        do {
            return try google.subscription(token: candidate.purchaseToken)
        } catch where ReplayEventProcessor.isGone(error) {
            return nil
        } catch {
            throw ItemFailure("subscriptionsv2.get for token \(Redaction.mask(candidate.purchaseToken)) failed", causedBy: error)
        }
    }

    private func project(_ candidate: AckRescueCandidate, _ answer: (purchase: SubscriptionPurchaseV2, raw: Data)) throws {
        let state = GoogleStoreState(purchaseToken: candidate.purchaseToken, purchase: answer.purchase, rawPayload: answer.raw)
        do {
            _ = try writer.project(.google(state), trigger: ProjectionTrigger(source: .requery, now: asOf))
        } catch {
            throw ItemFailure("projection failed", causedBy: error)
        }
    }
}

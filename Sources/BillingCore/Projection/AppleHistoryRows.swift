import Foundation

/// The history rows one verified transaction of Get Transaction History states, whatever the subscription's state now
/// (docs/RECONCILIATION.md, "Closing the loop"): its charge and, when the transaction was revoked, its refund or
/// revocation. Nothing else: the status, entitlement and state events stay the projection's, from the latest state.
///
/// - The charge: `APPLE:{originalTransactionId}:{transactionId}`, PURCHASED for the original transaction and RENEWED for
///   any later one, dated `purchaseDate`, for the transaction's price and paid period — the row the notification of
///   that transaction would have written (a recovery or resubscription is restored as a renewal).
/// - A revoked transaction: `…:REFUNDED` (or `…:REVOKED` for a family-sharing revocation), dated `revocationDate`, for
///   minus the refunded amount (price × `revocationPercentage`), as the REFUND notification writes it.
public enum AppleHistoryRows {
    /// The rows of `transaction` for the subscription `snapshot`; `plan` is the plan its product maps to.
    public static func records(_ transaction: JWSTransactionDecodedPayload, snapshot: SubscriptionSnapshot, plan: ChargePlan?,
                               trigger: ProjectionTrigger, rawPayload: Data) throws(ProjectionError) -> [BillingTransactionRecord] {
        let facts = try AppleFacts(state: AppleStoreState(notification: nil, transaction: transaction, renewalInfo: nil))
        let rows = AppleRows(facts: facts, snapshot: snapshot, trigger: trigger, rawPayload: rawPayload, period: nil)
        let purchasedAt = transaction.purchaseDate?.date ?? facts.stateTime
        var charge = rows.record(key: facts.chargeKey, type: facts.isInitialCharge ? .purchased : .renewed, effectiveAt: purchasedAt,
                                 expiresAt: facts.expiresAt, amount: facts.price, churn: nil)
        charge.charge = ChargePeriod(productId: transaction.productId, planId: plan?.planId, billingPeriod: plan?.billingPeriod,
                                     startAt: purchasedAt, endAt: facts.expiresAt)
        guard transaction.revocationDate != nil else { return [charge] }
        let type = facts.revokeEventType
        var revoked = rows.record(key: rows.eventKey(for: type, suffix: ""), type: type, effectiveAt: rows.effectiveAt(of: type),
                                  expiresAt: facts.expiresAt, amount: rows.amount(of: type), churn: type == .revoked ? .revoked : .refund)
        revoked.refund = rows.refund(of: type)
        return [charge, revoked]
    }
}

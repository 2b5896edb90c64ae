import Foundation

/// Builds Apple BillingTransaction rows (key rules in `BillingTransactionRecord`).
struct AppleRows {
    let facts: AppleFacts
    let snapshot: SubscriptionSnapshot
    let trigger: ProjectionTrigger
    let rawPayload: Data

    /// The charge row of the transaction, the event row, and PRICE_CHANGED when a renewal changes the price.
    func records(decision: AppleDecision, current: SubscriptionSnapshot?) -> [BillingTransactionRecord] {
        var rows: [BillingTransactionRecord] = []
        let chargeType = decision.chargeEventType ?? (facts.isInitialCharge ? .purchased : .renewed)
        rows.append(record(key: facts.chargeKey, type: chargeType,
                           effectiveAt: facts.transaction.purchaseDate?.date ?? facts.stateTime,
                           expiresAt: facts.expiresAt, amount: facts.price, churn: nil))
        if decision.eventRow, let type = decision.eventType {
            rows.append(record(key: eventKey(for: type, suffix: decision.keySuffix), type: type,
                               effectiveAt: effectiveAt(of: type), expiresAt: snapshot.currentPeriodEndAt,
                               amount: amount(of: type), churn: decision.churnReason))
        }
        let isNewCharge = current != nil && current?.apple?.latestTransactionId != facts.transactionId
        let sameProduct = current?.productId == facts.transaction.productId
        if isNewCharge, sameProduct, !facts.isTrial, let old = current?.currentPrice, let new = facts.price,
           old.currencyCode == new.currencyCode, old.micros != new.micros {
            rows.append(record(key: eventKey(for: .priceChanged, suffix: ""), type: .priceChanged,
                               effectiveAt: facts.transaction.purchaseDate?.date ?? facts.stateTime,
                               expiresAt: facts.expiresAt, amount: new, churn: nil))
        }
        return rows
    }

    /// `APPLE:{originalTransactionId}:{transactionId}:{EVENT_TYPE}{suffix}`.
    func eventKey(for type: BillingEventType, suffix: String) -> String {
        facts.chargeKey + ":" + type.rawValue + suffix
    }

    func effectiveAt(of type: BillingEventType) -> Date {
        switch type {
        case .refunded, .revoked: return facts.transaction.revocationDate?.date ?? facts.stateTime
        case .expired:
            guard let expiresAt = facts.expiresAt, expiresAt <= facts.stateTime else { return facts.stateTime }
            return expiresAt
        default: return facts.stateTime
        }
    }

    func amount(of type: BillingEventType) -> Money? {
        switch type {
        case .refunded: return facts.refundedAmount
        case .priceChangePending, .priceChangeAccepted: return facts.renewalPrice
        default: return nil
        }
    }

    func record(key: String, type: BillingEventType, effectiveAt: Date, expiresAt: Date?, amount: Money?,
                churn: ChurnReason?) -> BillingTransactionRecord {
        BillingTransactionRecord(
            transactionKey: key, provider: .apple, eventType: type, effectiveAt: effectiveAt, expiresAt: expiresAt,
            orderId: nil, amount: amount, storefront: facts.transaction.storefront, isTest: snapshot.isTestPurchase,
            churnReason: churn, inboundEventId: trigger.source.inboundEventId, rawPayload: rawPayload)
    }
}

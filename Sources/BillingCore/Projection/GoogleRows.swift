import Foundation

/// Builds Google BillingTransaction rows (key rules in `BillingTransactionRecord`).
struct GoogleRows {
    let facts: GoogleFacts
    let snapshot: SubscriptionSnapshot
    let trigger: ProjectionTrigger
    let rawPayload: Data
    /// The subscription as the database had it (re-query rows date failures from its paid period).
    var current: SubscriptionSnapshot?

    /// One charge row per paid line item (with its signup promotion), the event row, and PRICE_CHANGED when the
    /// recurring price moved. An answer that does not show its paid period (`GoogleFacts.showsPaidPeriod`) adds no
    /// charge row: the row would carry the grace or hold end as its period, and differ by which answer came first.
    /// A line item's price that does not convert exactly throws `ProjectionError.invalidAmount` (never a nil amount).
    func records(decision: GoogleDecision, current: SubscriptionSnapshot?) throws(ProjectionError) -> [BillingTransactionRecord] {
        var rows: [BillingTransactionRecord] = []
        if facts.showsPaidPeriod {
            for item in facts.purchase.items {
                guard let key = facts.chargeKey(item) else { continue }
                let fallback: BillingEventType = facts.isRenewal(item) ? .renewed : .purchased
                let type = item == facts.primary ? (decision.chargeEventType ?? fallback) : fallback
                let effectiveAt = facts.isRenewal(item) ? (facts.chargedPeriodStart ?? facts.stateTime)
                    : (facts.purchase.startTime?.date ?? facts.stateTime)
                var row = record(key: key, type: type, effectiveAt: effectiveAt, expiresAt: item.expiryTime?.date,
                                 orderId: facts.orderId(item), amount: try chargeAmount(item), churn: nil)
                row.signupPromotionType = item.signupPromotion?.kind
                row.signupPromotionCode = item.signupPromotion?.vanityCode?.promotionCode
                row.charge = ChargePeriod(productId: item.productId, planId: snapshot.planId,
                                          billingPeriod: facts.billingPeriod?.iso, startAt: effectiveAt, endAt: item.expiryTime?.date)
                rows.append(row)
            }
        }
        if decision.eventRow, let type = decision.eventType {
            let key = decision.eventKey ?? facts.anchorKey + ":" + type.rawValue + decision.keySuffix
            let orderId = type == .refunded ? facts.voided?.orderId : facts.orderId(facts.primary)
            var row = record(key: key, type: type, effectiveAt: effectiveAt(of: type), expiresAt: snapshot.currentPeriodEndAt,
                             orderId: orderId, amount: eventAmount(type), churn: decision.churnReason)
            if type == .refunded { (row.amount, row.refund) = try refund() }
            rows.append(row)
        }
        if current?.productId == snapshot.productId, let old = current?.currentPrice, let new = snapshot.currentPrice,
           old.currencyCode == new.currencyCode, old.micros != new.micros {
            rows.append(record(key: facts.anchorKey + ":" + BillingEventType.priceChanged.rawValue, type: .priceChanged,
                               effectiveAt: facts.chargedPeriodStart ?? facts.stateTime, expiresAt: snapshot.currentPeriodEndAt,
                               orderId: facts.orderId(facts.primary), amount: new, churn: nil))
        }
        return rows
    }

    /// Free trial: zero; introductory phase: unknown (nil); otherwise the recurring price. A price that does not
    /// convert exactly throws `ProjectionError.invalidAmount`.
    func chargeAmount(_ item: SubscriptionPurchaseLineItem) throws(ProjectionError) -> Money? {
        let plan = item.autoRenewingPlan
        let recurring = item == facts.primary ? facts.recurringPrice
            : try Amounts.convert { () throws(MoneyError) in try plan?.recurringPrice?.money() }
        if item.isFreeTrial { return recurring.map { Money(micros: 0, currencyCode: $0.currencyCode) } }
        if item.offerPhase?.introductoryPrice != nil { return nil }
        return recurring
    }

    func effectiveAt(of type: BillingEventType) -> Date {
        switch type {
        case .canceled:
            return facts.purchase.canceledStateContext?.userInitiatedCancellation?.cancelTime?.date ?? facts.stateTime
        case .expired:
            // An expiry that ends a billing failure (grace, account hold) happened when the store ended the hold.
            if current?.status.isBillingFailure == true { return facts.stateTime }
            guard let expiry = facts.expiresAt, expiry <= facts.stateTime else { return facts.stateTime }
            return expiry
        case .refunded: return facts.voided?.time ?? facts.stateTime
        case .enteredGracePeriod, .enteredOnHold:
            // A re-query sees the failure only when it runs: the failure happened when the paid period ended.
            guard facts.stateTime == trigger.now, let paidEnd = current?.currentPeriodEndAt,
                  paidEnd <= facts.stateTime else { return facts.stateTime }
            return paidEnd
        default: return facts.stateTime
        }
    }

    /// The refund of the voided order: its amount when it is this state's latest order (negated), else nil and the
    /// database fills it from the refunded charge; the kind and Google's reason codes when the void carries them.
    func refund() throws(ProjectionError) -> (Money?, RefundDetails) {
        let orderId = facts.voided?.orderId
        let key = orderId.map { "GOOGLE:\(facts.token):\($0)" }
        var amount: Money?
        if orderId != nil, orderId == facts.primary.latestSuccessfulOrderId, let charged = try chargeAmount(facts.primary), charged.micros > 0 {
            amount = Money(micros: -charged.micros, currencyCode: charged.currencyCode)
        }
        return (amount, GoogleRows.refundDetails(voided: facts.voided, refundedKey: key))
    }

    /// REFUND or CHARGEBACK (voidedReason 7) with Google's voidedSource / voidedReason as sent.
    static func refundDetails(voided: GoogleVoid?, refundedKey: String?) -> RefundDetails {
        RefundDetails(kind: voided?.reason == 7 ? .chargeback : .refund, refundedTransactionKey: refundedKey,
                      googleVoidedSource: voided?.source, googleVoidedReason: voided?.reason)
    }

    func eventAmount(_ type: BillingEventType) -> Money? {
        // A billing failure records the recurring price being retried (what the grace period is worth).
        if type == .enteredGracePeriod { return facts.recurringPrice }
        guard [.priceChangePending, .priceChangeAccepted, .priceChangeCanceled, .priceChanged].contains(type) else { return nil }
        return snapshot.openPriceChange.map { Money(micros: $0.newAmountMicros, currencyCode: $0.currencyCode) }
    }

    func record(key: String, type: BillingEventType, effectiveAt: Date, expiresAt: Date?, orderId: String?,
                amount: Money?, churn: ChurnReason?) -> BillingTransactionRecord {
        BillingTransactionRecord(
            transactionKey: key, provider: .google, eventType: type, effectiveAt: effectiveAt, expiresAt: expiresAt,
            orderId: orderId, amount: amount, storefront: facts.purchase.regionCode, isTest: snapshot.isTestPurchase,
            churnReason: churn, inboundEventId: trigger.source.inboundEventId, rawPayload: rawPayload)
    }
}

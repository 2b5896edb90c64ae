import Foundation

/// Builds Apple BillingTransaction rows (key rules in `BillingTransactionRecord`).
struct AppleRows {
    let facts: AppleFacts
    let snapshot: SubscriptionSnapshot
    let trigger: ProjectionTrigger
    let rawPayload: Data
    /// The mapped plan's billing period (nil when the product is unmapped).
    var period: BillingPeriod?

    /// The charge row of the transaction, the event row, and PRICE_CHANGED when a renewal changes the price.
    func records(decision: AppleDecision, current: SubscriptionSnapshot?) -> [BillingTransactionRecord] {
        var rows: [BillingTransactionRecord] = []
        let chargeType = decision.chargeEventType ?? (facts.isInitialCharge ? .purchased : .renewed)
        let purchasedAt = facts.transaction.purchaseDate?.date ?? facts.stateTime
        var charge = record(key: facts.chargeKey, type: chargeType, effectiveAt: purchasedAt,
                            expiresAt: facts.expiresAt, amount: facts.price, churn: nil)
        charge.charge = ChargePeriod(productId: facts.transaction.productId, planId: snapshot.planId, billingPeriod: period?.iso,
                                     startAt: purchasedAt, endAt: facts.expiresAt)
        rows.append(charge)
        if decision.eventRow, let type = decision.eventType {
            var row = record(key: eventKey(for: type, suffix: decision.keySuffix), type: type,
                             effectiveAt: effectiveAt(of: type, afterBillingFailure: endsBillingFailure(current: current)),
                             expiresAt: snapshot.currentPeriodEndAt, amount: amount(of: type), churn: decision.churnReason)
            row.refund = refund(of: type)
            rows.append(row)
        }
        if decision.billingRetryRow {
            // Billing retry without a grace period: the status stays ACTIVE (mapping table: event record only), but the
            // history records the hold entry (post-grace billing retry with a grace period of zero), dated the failed
            // renewal, so grace/hold recovery counts it; a later DID_RENEW/BILLING_RECOVERY records RECOVERED.
            rows.append(record(key: eventKey(for: .enteredOnHold, suffix: ""), type: .enteredOnHold,
                               effectiveAt: effectiveAt(of: .enteredOnHold), expiresAt: snapshot.currentPeriodEndAt,
                               amount: nil, churn: nil))
        }
        let isNewCharge = current != nil && current?.apple?.latestTransactionId != facts.transactionId
        let sameProduct = current?.productId == facts.transaction.productId
        if isNewCharge, sameProduct, !facts.isFreePeriod, let old = current?.currentPrice, let new = facts.price,
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

    /// The store's instant of the event: revocationDate for refunds, the period end for expiry and billing
    /// failure (when already past), else the state's signedDate. An expiry that ends a billing failure (grace or
    /// billing retry) happened when the store gave up retrying (the state's signedDate), not at the period's end.
    ///
    /// Whether an expiry ends a billing failure is read from the state itself (`endsBillingFailure`), never from the
    /// stored status, so the same expiry gets the same instant whichever job (replay, recovery, re-query) projects it
    /// first; a notification's later evidence replaces a re-query's instant (`OutcomeRows.insertTransactions`).
    func effectiveAt(of type: BillingEventType, afterBillingFailure: Bool = false) -> Date {
        switch type {
        case .refunded, .revoked: return facts.transaction.revocationDate?.date ?? facts.stateTime
        case .expired where afterBillingFailure: return facts.stateTime
        case .expired, .enteredGracePeriod:
            return Self.past(facts.expiresAt, facts.stateTime)
        case .enteredOnHold:
            return Self.past(facts.graceEndsAt ?? facts.expiresAt, facts.stateTime)
        default: return facts.stateTime
        }
    }

    /// Whether this state's expiry ends a billing failure: the renewal info says the store stopped for a billing error
    /// (`expirationIntent` 2), whatever the stored status was when the row is written. Only a state without an
    /// intent (no renewal info) falls back to the stored status (a grace period or account hold).
    func endsBillingFailure(current: SubscriptionSnapshot?) -> Bool {
        guard let intent = facts.renewalInfo?.rawExpirationIntent else { return current?.status.isBillingFailure ?? false }
        return intent == AppleExpirationIntent.billingError.rawValue
    }

    /// `instant` when it is known and not after `stateTime`, else `stateTime`.
    static func past(_ instant: Date?, _ stateTime: Date) -> Date {
        guard let instant, instant <= stateTime else { return stateTime }
        return instant
    }

    func amount(of type: BillingEventType) -> Money? {
        switch type {
        case .refunded:
            guard facts.transaction.revocationTypeValue != .familyRevoke else { return nil }
            return facts.refundedAmount.map { Money(micros: -abs($0.micros), currencyCode: $0.currencyCode) }
        // A billing failure records the renewal price being retried (what the grace period is worth).
        case .priceChangePending, .priceChangeAccepted, .enteredGracePeriod: return facts.renewalPrice
        default: return nil
        }
    }

    /// Refund and revocation rows name the charge revoked (this transaction), the kind and Apple's reason codes.
    func refund(of type: BillingEventType) -> RefundDetails? {
        guard type == .refunded || type == .revoked else { return nil }
        let family = type == .revoked || facts.transaction.revocationTypeValue == .familyRevoke
        return RefundDetails(kind: family ? .familyRevoke : .refund, refundedTransactionKey: facts.chargeKey,
                             appleRevocationReason: facts.transaction.revocationReason,
                             appleRevocationType: facts.transaction.rawRevocationType)
    }

    /// A row of this transaction; every row carries the transaction's offer (`offerType`, `offerDiscountType`) as sent.
    func record(key: String, type: BillingEventType, effectiveAt: Date, expiresAt: Date?, amount: Money?,
                churn: ChurnReason?) -> BillingTransactionRecord {
        BillingTransactionRecord(
            transactionKey: key, provider: .apple, eventType: type, effectiveAt: effectiveAt, expiresAt: expiresAt,
            orderId: nil, amount: amount, storefront: facts.transaction.storefront, isTest: snapshot.isTestPurchase,
            churnReason: churn, inboundEventId: trigger.source.inboundEventId, rawPayload: rawPayload,
            offerType: facts.transaction.rawOfferType, offerDiscountType: facts.transaction.rawOfferDiscountType)
    }
}

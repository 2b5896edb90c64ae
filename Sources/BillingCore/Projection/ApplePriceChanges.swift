import Foundation

/// Apple price changes: derived from the renewal info (renewalPrice vs the charged price, priceIncreaseStatus).
///
/// The open change is a pure function of the newest state; APPLIED is recognised when a new
/// transaction is charged at the open change's new price; an open change closes as CANCELED when
/// the subscription expires or is revoked (EXPIRED·PRICE_INCREASE) or the increase disappears.
struct ApplePriceChanges {
    let facts: AppleFacts
    let status: SubscriptionStatus
    let current: SubscriptionSnapshot?

    /// The open (PENDING / ACCEPTED) change this state shows; nil when none.
    var open: SubscriptionPriceChange? {
        guard facts.renewalInfo != nil else { return current?.openPriceChange }
        guard [.active, .trialing, .inGracePeriod, .onHold].contains(status) else { return nil }
        guard facts.transaction.rawOfferType == nil, facts.renewalInfo?.rawOfferType == nil else { return nil }
        let renewingProduct = facts.renewalInfo?.autoRenewProductId ?? facts.transaction.productId
        guard renewingProduct == facts.transaction.productId else { return nil }
        guard let old = facts.price, let new = facts.renewalPrice, old.currencyCode == new.currencyCode,
              old.micros != new.micros else { return nil }
        let increase = new.micros > old.micros
        let consented = facts.renewalInfo?.priceIncreaseStatusValue == .consentedOrNotified
        let state: PriceChangeState = increase && !consented ? .pending : .accepted
        let eventType: BillingEventType = state == .pending ? .priceChangePending : .priceChangeAccepted
        return SubscriptionPriceChange(
            provider: .apple, mode: increase ? .priceIncrease : .priceDecrease, state: state,
            currencyCode: new.currencyCode, oldAmountMicros: old.micros, newAmountMicros: new.micros,
            expectedChargeAt: facts.renewalInfo?.renewalDate?.date ?? facts.expiresAt,
            sourceEventKey: facts.chargeKey + ":" + eventType.rawValue + ":\(new.currencyCode):\(new.micros)")
    }

    /// The store's instant of a CANCELED transition, read from the state so every path (notification, re-query) dates
    /// it alike: a revoked subscription's change ends at the `revocationDate`; an expired one's at the end of the
    /// period it was to renew (`expiresDate`, when already past), since that renewal at the new price never happened.
    /// Only a change that disappears from a live subscription is dated at the state's own instant (nil: the
    /// assembler's `stateTime`).
    var canceledAt: Date? {
        if let revoked = facts.transaction.revocationDate?.date { return revoked }
        guard status == .expired || status == .revoked else { return nil }
        return AppleRows.past(facts.expiresAt, facts.stateTime)
    }

    /// The upsert for the writer: the open change, or the closing of the previously open one.
    func upsert(closingKey: String) -> SubscriptionPriceChange? {
        if let open { return open == current?.openPriceChange && facts.renewalInfo == nil ? nil : open }
        guard var previous = current?.openPriceChange else { return nil }
        let newCharge = current?.apple?.latestTransactionId != facts.transactionId
        if newCharge, let price = facts.price, price.currencyCode == previous.currencyCode,
           price.micros == previous.newAmountMicros {
            previous.state = .applied
            previous.effectiveAt = facts.transaction.purchaseDate?.date ?? facts.stateTime
            previous.sourceEventKey = facts.chargeKey
        } else {
            previous.state = .canceled
            previous.sourceEventKey = closingKey
            previous.stateAt = canceledAt
        }
        previous.expectedChargeAt = previous.expectedChargeAt ?? facts.expiresAt
        return previous
    }
}

/// The latest successful order of a line item, whichever answer describes it.
///
/// `lineItems[].latestSuccessfulOrderId` is the truth. Older answers lack it; then the order is inferred from the
/// purchase-level (deprecated) `latestOrderId`, which names the latest order whatever its outcome, so that a charge
/// gets the same order (and transaction key) whichever answer describes it first:
/// - only for a single-item purchase (a purchase-level ID cannot be attributed to one of several items);
/// - ACTIVE, CANCELED, PAUSED, EXPIRED: the latest order is the latest paid one (an active or ended period was paid);
/// - IN_GRACE_PERIOD, ON_HOLD, and EXPIRED after a system (billing) cancellation: the latest order is the declined
///   or pending renewal, so the latest paid one is its predecessor (`..N-1`, the signup order for `..0`);
/// - PENDING, PENDING_PURCHASE_CANCELED or an unknown state: nothing was paid, no order is inferred.
enum GoogleSuccessfulOrder {
    /// The item's latest successful order; nil when neither the item nor the inference names one.
    static func of(_ item: SubscriptionPurchaseLineItem, in purchase: SubscriptionPurchaseV2) -> GoogleOrderId? {
        if let explicit = GoogleOrderId(item.latestSuccessfulOrderId) { return explicit }
        guard purchase.items.count == 1, let latest = GoogleOrderId(purchase.latestOrderId) else { return nil }
        switch purchase.subscriptionStateValue {
        case .active?, .canceled?, .paused?:
            return latest
        case .expired?:
            return purchase.canceledStateContext?.systemInitiatedCancellation != nil ? latest.previous : latest
        case .inGracePeriod?, .onHold?:
            return latest.previous
        case .pending?, .pendingPurchaseCanceled?, .unspecified?, nil:
            return nil
        }
    }
}

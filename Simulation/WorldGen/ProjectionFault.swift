/// The kinds of projection fault a world can inject into its database (the store truth stays correct).
public enum ProjectionFault: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The subscription's last notification never reached the server: stale status, expiry or rows.
    case missedNotification = "missed_notification"
    /// The last notification was stored but its processing failed (`processing_error`, `processed_at` NULL).
    case failedWebhook = "failed_webhook"
    /// Google: the purchase was acknowledged in the store but the database still says PENDING.
    case acknowledgementNotRecorded = "acknowledgement_not_recorded"
    /// Google: a recent purchase is still unacknowledged in the store (and PENDING in the database).
    case acknowledgementPendingInStore = "acknowledgement_pending_in_store"
    /// Apple: the REFUND / REVOKE notification was stored but its projection never reached the rows.
    case refundNotReflected = "refund_not_reflected"
    /// The subscription's current recurring price still shows the price before an applied change.
    case stalePrice = "stale_price"
    /// Apple: a notification of the history (not the last) is missing from InboundWebhookEvent.
    case appleNotificationNotStored = "apple_notification_not_stored"
    /// Google: a voided purchase (refund or chargeback) was never applied by the sweep.
    case voidedPurchaseNotApplied = "voided_purchase_not_applied"

    /// Orders kinds by raw value (stable manifest order).
    public static func < (lhs: ProjectionFault, rhs: ProjectionFault) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True when a re-query of the subscription's current store state reveals the fault as drift.
    public var visibleToRequery: Bool {
        switch self {
        case .missedNotification, .failedWebhook, .acknowledgementNotRecorded, .refundNotReflected, .stalePrice,
             .voidedPurchaseNotApplied: return true
        case .acknowledgementPendingInStore, .appleNotificationNotStored: return false
        }
    }
}

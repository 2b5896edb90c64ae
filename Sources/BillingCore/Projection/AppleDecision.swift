import Foundation

/// How one Apple notification (or a plain re-query) maps onto the model.
struct AppleDecision {
    var status: SubscriptionStatus
    var eventType: BillingEventType?
    var label: String
    /// Set when the event is the charge of the transaction: the charge row gets this type.
    var chargeEventType: BillingEventType?
    /// Emit a separate non-charge row for `eventType`.
    var eventRow = false
    /// Discriminator appended to the event row key.
    var keySuffix = ""
    var churnReason: ChurnReason?
    /// Record-only: keep the known subscription as it is.
    var keepCurrentState = false
    /// The instant the subscriber turned auto-renew off, when this event says so.
    var cancellationAt: Date?
    /// Billing retry without a grace period: record an ENTERED_ON_HOLD history row although the status stays ACTIVE.
    var billingRetryRow = false
}

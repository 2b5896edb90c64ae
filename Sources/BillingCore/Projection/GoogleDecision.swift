/// How one RTDN (or a plain re-query, or a void) maps onto the model.
struct GoogleDecision {
    var status: SubscriptionStatus
    var eventType: BillingEventType?
    var label: String
    /// Set when the event is the charge of the primary line item's latest order.
    var chargeEventType: BillingEventType?
    /// Emit a separate non-charge row for `eventType`.
    var eventRow = false
    /// A complete key for the event row, overriding `{anchor}:{EVENT}{suffix}`.
    var eventKey: String?
    var keySuffix = ""
    var churnReason: ChurnReason?
    /// Record-only: keep the known subscription as it is.
    var keepCurrentState = false
}

import BillingCore
import Crypto

/// One store event of a subscription's stream: what the webhook path (or the sweep) projected.
struct WorldEvent {
    /// How the event reached the database.
    enum Path { case webhook, sweep }

    let atMs: Int64
    let path: Path
    let label: String
    let state: StoreState
    /// The product id the event's state bills (for plan resolution).
    let productId: String
    let basePlanId: String
    let offerId: String
    /// The stored InboundWebhookEvent (webhook path only).
    var inbound: InboundRow?
    /// Index of the Apple notification in the subscription's notification list, if any.
    var appleNotification: Int?
    /// True for REFUND / REVOKE / voided purchase events.
    var isRevocation = false
    /// Google: the backend acknowledged the purchase right after projecting this event.
    var acknowledgeAfter = false
}

/// An `inbound_webhook_event` row.
struct InboundRow {
    let id: String
    let provider: String
    let providerEventId: String
    let businessKey: String?
    let environment: String
    let payload: JSONValue
    let receivedAtMs: Int64
    var processedAtMs: Int64?
    var processingError: String?
}

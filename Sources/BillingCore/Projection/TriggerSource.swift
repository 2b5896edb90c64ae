/// Where the store state came from.
public enum TriggerSource: Sendable, Hashable {
    /// Replay of a stored webhook (`InboundWebhookEvent.id`).
    case webhook(inboundEventId: String)
    /// A re-query with no notification at all.
    case requery
    /// Recovery through Apple Get Notification History (`InboundWebhookEvent.id` once stored).
    case notificationHistory(inboundEventId: String?)
    /// The Google voided-purchase sweep.
    case voidedPurchaseSweep
    /// A client ingest by an authenticated billing account.
    case clientIngest(action: IngestAction, requestingAccountId: String)

    /// The InboundWebhookEvent id, when there is one.
    public var inboundEventId: String? {
        switch self {
        case .webhook(let id): return id
        case .notificationHistory(let id): return id
        case .requery, .voidedPurchaseSweep, .clientIngest: return nil
        }
    }
}

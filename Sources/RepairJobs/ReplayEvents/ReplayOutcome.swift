/// What became of one replayed inbound event.
public enum ReplayOutcome: Sendable, Equatable {
    /// Projected and marked processed in the same transaction; `created` when the subscription row was new.
    case projected(created: Bool)
    /// Marked processed without projection (test notification, unknown type, no subscription in it).
    case skipped(String)
    /// The store answered that the purchase can no longer be queried (Google 410): retrying cannot succeed, so the
    /// event goes to `dead_letter` at once. Nothing was projected.
    case gone(ItemFailure)
    /// Not processed; the failure names the event and has its kind. Nothing was projected.
    case failed(ItemFailure)
}

/// How the store state related to what the database had.
public enum ProjectionDisposition: String, Sendable, Hashable, CaseIterable {
    /// The state was newer and changed the subscription.
    case applied
    /// The state was not older but changed nothing (repeat, or a record-only event).
    case unchanged
    /// The state was older than `lastStoreStateAt`: the subscription keeps its newer state;
    /// history rows and history facts (trial end, cancellation time, revocation) are still recorded.
    case stale
}

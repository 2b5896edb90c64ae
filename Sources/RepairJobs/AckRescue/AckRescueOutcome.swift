/// What became of one subscription the acknowledgement rescue looked at.
enum AckRescueOutcome: Sendable, Equatable {
    /// The store already said ACKNOWLEDGED; the database was repaired by projecting the store state.
    case repaired
    /// The purchase was paid and pending at the store: acknowledged, re-queried and projected.
    case acknowledged
    /// The purchase is not paid (subscriptionState PENDING): never acknowledged, nothing written.
    case skippedUnpaid
    /// Dry run: the store says ACKNOWLEDGED and the database would be repaired.
    case wouldRepair
    /// Dry run: the purchase is paid and pending at the store and would be acknowledged.
    case wouldAcknowledge
    /// Google answered 410: the token can no longer be queried; nothing is written.
    case gone
    /// A store call or the projection failed; the failure names the subscription and has its kind.
    case failed(ItemFailure)
}

/// What became of one voided purchase the sweep listed.
enum SweepVoidedOutcome: Sendable, Equatable {
    /// Projected with trigger `.voidedPurchaseSweep`; `inserted` history rows were new (0 when already applied).
    case projected(inserted: Int)
    /// The purchase token belongs to no subscription (a one-time product, another app); nothing is written.
    case unknownToken
    /// Dry run: the token belongs to a subscription and would be projected.
    case wouldProject
    /// The re-query or the projection failed; the failure names the token (masked) and has its kind.
    case failed(ItemFailure)
}

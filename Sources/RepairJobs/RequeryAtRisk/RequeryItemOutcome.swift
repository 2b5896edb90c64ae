/// What became of one re-queried subscription.
public enum RequeryItemOutcome: Sendable, Equatable {
    /// Projected; `drift` lists the kinds of the differences found (empty: the database was right).
    case projected(drift: [String])
    /// Google answered 410: the token is more than 60 days past expiry; nothing is projected.
    case tokenGone
    /// The store call or the projection failed; nothing unverified was written. The failure names the record and has its kind.
    case failed(ItemFailure)
    /// The endpoint's daily budget is used up: no call was made; the subscription is left for the next run.
    case budgetExhausted(String)
}

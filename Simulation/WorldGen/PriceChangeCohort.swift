import BillingCore

/// One price change with its cohort counts, from the world's story (see `PriceChangeCohorts` for the definitions).
public struct PriceChangeCohort: Sendable, Hashable, Codable {
    public var changeId: String
    public var provider: String
    /// Apple productId, or Google productId/basePlanId.
    public var productId: String
    public var planCode: String
    public var region: String
    public var currency: String
    public var oldMicros: Int64
    public var newMicros: Int64
    public var mode: String
    public var announcedAt: String
    public var effectiveAt: String
    public var affected = 0
    public var notified = 0
    public var consented = 0
    public var applied = 0
    public var churnedDueToChange = 0
    public var otherChurn = 0
    public var baselinePeers = 0
    public var baselineChurned = 0
    /// Monthly-normalised price lost by change-caused churn (old price) and gained by applied increases (new − old).
    public var mrrLostMicros: Int64 = 0
    public var mrrGainedMicros: Int64 = 0

    enum CodingKeys: String, CodingKey {
        case changeId = "change_id", provider, productId = "product_id", planCode = "plan_code", region, currency
        case oldMicros = "old_micros", newMicros = "new_micros", mode, announcedAt = "announced_at", effectiveAt = "effective_at"
        case affected, notified, consented, applied, churnedDueToChange = "churned_due_to_change", otherChurn = "other_churn"
        case baselinePeers = "baseline_peers", baselineChurned = "baseline_churned", mrrLostMicros = "mrr_lost_micros"
        case mrrGainedMicros = "mrr_gained_micros"
    }
}

/// One state transition of one subscription under one price change (the world's own record).
public struct PriceChangeTransition: Sendable, Hashable {
    public var changeId: String
    public var subscriptionId: String
    /// PENDING (told), ACCEPTED (consented), APPLIED (first charge at the new price) or CANCELED.
    public var state: PriceChangeState
    public var atMs: Int64
    /// For CANCELED: `declined` (no consent), `ended` (the subscription ended first) or `replaced` (plan change).
    public var cause: String

    /// `price-change-transitions.csv` header.
    static let csvHeader = "change_id,subscription_id,state,at,cause"

    var csvLine: String { "\(changeId),\(subscriptionId),\(state.rawValue),\(WorldClock.rfc3339(atMs)),\(cause)" }
}

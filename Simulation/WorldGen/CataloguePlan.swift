/// A plan of the simulated app with its store products (Apple product, Google product + base plan + trial offer).
public struct CataloguePlan: Sendable, Hashable {
    public let id: String
    public let code: String
    public let name: String
    /// `interval_unit` (the schema knows MONTHLY and YEARLY only; weekly plans are MONTHLY with period P1W).
    public let intervalUnit: String
    /// ISO 8601 billing period: P1W, P1M or P1Y.
    public let billingPeriod: String
    public let appleProductId: String
    public let googleProductId: String
    public let googleBasePlanId: String
    /// The Google free-trial offer on this base plan, if any.
    public let googleTrialOfferId: String?
    /// Share of new purchases choosing this plan.
    public let weight: Double
    /// Rank for upgrades (higher = longer period).
    public let rank: Int
}

/// The plan a repaired history row's product maps to, for its paid period (`plan_id`, `billing_period`).
public struct ChargePlan: Sendable, Hashable {
    public var planId: String
    /// ISO 8601 duration of one billing period (P1M, P1Y, …).
    public var billingPeriod: String

    /// Creates a plan reference.
    public init(planId: String, billingPeriod: String) {
        self.planId = planId
        self.billingPeriod = billingPeriod
    }
}

/// Side facts of a projection the caller acts on or reports.
public struct ProjectionFlags: Sendable, Hashable {
    /// A Google purchase must be acknowledged (paid initial purchase or prepaid top-up, not yet acknowledged).
    public var acknowledgementNeeded: Bool
    /// Sandbox, Xcode, licence-tester or `testPurchase` data.
    public var isTestPurchase: Bool
    public var environment: StoreEnvironment
    /// No billing account owns the purchase yet: kept with no entitlement until claimed.
    public var isUnclaimed: Bool
    /// The store granted a free trial to an account that already consumed one (cross-provider audit).
    public var trialAlreadyConsumed: Bool

    /// Creates flags.
    public init(acknowledgementNeeded: Bool, isTestPurchase: Bool, environment: StoreEnvironment,
                isUnclaimed: Bool, trialAlreadyConsumed: Bool) {
        self.acknowledgementNeeded = acknowledgementNeeded
        self.isTestPurchase = isTestPurchase
        self.environment = environment
        self.isUnclaimed = isUnclaimed
        self.trialAlreadyConsumed = trialAlreadyConsumed
    }
}

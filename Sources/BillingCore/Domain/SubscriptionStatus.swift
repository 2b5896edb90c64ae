/// The internal, normalised state of a store subscription (SQL enum `SubscriptionStatus`).
public enum SubscriptionStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case pending = "PENDING"
    case active = "ACTIVE"
    case trialing = "TRIALING"
    case inGracePeriod = "IN_GRACE_PERIOD"
    case onHold = "ON_HOLD"
    case paused = "PAUSED"
    case canceled = "CANCELED"
    case expired = "EXPIRED"
    case revoked = "REVOKED"
}

extension SubscriptionStatus {
    /// In a billing failure: grace period or account hold / billing retry.
    public var isBillingFailure: Bool { self == .inGracePeriod || self == .onHold }
}

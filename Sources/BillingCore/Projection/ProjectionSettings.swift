/// Product policy knobs of the projection.
public struct ProjectionSettings: Sendable, Hashable {
    /// Keep the entitlement during a billing grace period (default true).
    public var entitleDuringGracePeriod: Bool

    /// Creates settings.
    public init(entitleDuringGracePeriod: Bool = true) {
        self.entitleDuringGracePeriod = entitleDuringGracePeriod
    }

    /// The default policy.
    public static let standard = ProjectionSettings()
}

import Foundation

/// What started a projection and the instant it runs at (time comes in, never from a clock).
public struct ProjectionTrigger: Sendable, Hashable {
    public var source: TriggerSource
    /// "Now" for entitlement checks and `lastVerifiedAt`.
    public var now: Date

    /// Creates a trigger.
    public init(source: TriggerSource, now: Date) {
        self.source = source
        self.now = now
    }
}

/// A line item's `prepaidPlan`.
public struct PrepaidPlan: Sendable, Equatable, Decodable {
    public var allowExtendAfterTime: RFC3339Timestamp?
}

/// The lifecycle state of a scheduled price change (SQL enum `PriceChangeState`).
public enum PriceChangeState: String, Sendable, Hashable, Codable, CaseIterable {
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case applied = "APPLIED"
    case canceled = "CANCELED"

    /// True for states that describe a change not yet charged (PENDING, ACCEPTED).
    public var isOpen: Bool { self == .pending || self == .accepted }
}

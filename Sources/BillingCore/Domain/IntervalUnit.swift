/// The billing period of a plan (SQL enum `IntervalUnit`).
public enum IntervalUnit: String, Sendable, Hashable, Codable, CaseIterable {
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
}

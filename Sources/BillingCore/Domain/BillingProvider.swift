/// The payment channel a subscription is billed through (SQL enum `BillingProvider`).
public enum BillingProvider: String, Sendable, Hashable, Codable, CaseIterable {
    case apple = "APPLE"
    case google = "GOOGLE"
    /// Defined in the schema but not implemented: the projection rejects it.
    case web = "WEB"
}

import BillingCore

/// Why requery-at-risk could not do something; each case names the record it concerns.
public enum RequeryError: Error, CustomStringConvertible, Sendable, KindedFailure {
    case selection(String)
    case notFound(String)
    case store(String)
    /// The named store has no configured client.
    case notConfigured(String)

    public var description: String {
        switch self {
        case .selection(let message): return "selection failed: \(message)"
        case .notFound(let message): return "not found: \(message)"
        case .store(let message): return message
        case .notConfigured(let store): return "\(store) is not configured"
        }
    }

    /// `not_configured` for a store without a client, else `other`.
    public var failureKind: FailureKind {
        if case .notConfigured = self { return .notConfigured }
        return .other
    }
}

import BillingCore
import Crypto

/// Why an App Store call produced no usable, verified answer.
public enum AppStoreClientError: Error, Sendable, CustomStringConvertible {
    /// A signed payload failed verification (the reason code of `JWSVerificationResult`); never projected.
    case verification(code: String, detail: String)
    /// The body was not the JSON the endpoint documents.
    case undecodable(endpoint: String, detail: String)

    public var description: String {
        switch self {
        case .verification(let code, let detail): return "signed payload rejected (\(code)): \(detail)"
        case .undecodable(let endpoint, let detail): return "\(endpoint) answered with an undecodable body: \(detail)"
        }
    }

    /// True when a retry may help: a corrupted transfer or signature, not a wrong app or environment.
    var isTransient: Bool {
        switch self {
        case .undecodable: return true
        case .verification(let code, _): return !(code.hasPrefix("wrong_app") || code.hasPrefix("wrong_environment"))
        }
    }
}

extension AppStoreClientError: KindedFailure {
    /// `signature` or `undecodable`.
    public var failureKind: FailureKind {
        switch self {
        case .verification: return .signature
        case .undecodable: return .undecodable
        }
    }
}

import BillingCore
import HTTP
import RateLimiting

/// Why a store call failed after its retries.
public enum StoreCallError: Error, Sendable, CustomStringConvertible {
    /// The request never got an HTTP answer (timeout, reset, truncated body, TLS, …).
    case transport(HTTPError)
    /// The store answered with an error the client classified (AppStoreAPIError, GooglePlayAPIError, …).
    case store(any Error & Sendable)
    /// The rate limiter refused (daily budget exhausted).
    case rateLimit(RateLimitError)
    /// The request could not be built (e.g. a token could not be signed).
    case request(any Error & Sendable)

    public var description: String {
        switch self {
        case .transport(let error): return "store call failed in transport: \(error)"
        case .store(let error): return "\(error)"
        case .rateLimit(let error): return "store call not attempted: \(error)"
        case .request(let error): return "store request could not be built: \(error)"
        }
    }
}

extension StoreCallError: KindedFailure {
    /// The transport's or the store error's own kind; a refusal of the rate limiter is `budget`; a request that could
    /// not be built has its cause's kind.
    public var failureKind: FailureKind {
        switch self {
        case .transport(let error): return error.failureKind
        case .store(let error), .request(let error): return FailureKind(of: error)
        case .rateLimit: return .budget
        }
    }
}

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

/// The kind of a failed store call, verification or repair step, for counts and metrics (`failed.<name>`): a small,
/// bounded set with short stable names, carried by the errors themselves (`KindedFailure`), never read out of their text.
public enum FailureKind: Sendable, Hashable, CustomStringConvertible {
    /// A connect or total timeout elapsed.
    case timeout
    /// The connection could not be made or broke.
    case connection
    /// The answer's body ended before its announced length.
    case truncated
    /// The answer's body grew past the client's limit.
    case tooLarge
    /// The TLS handshake or certificate check failed.
    case tls
    /// The rate limiter refused the call (budget used up); no call was made.
    case budget
    /// The store answered with this HTTP status (an error answer).
    case http(status: Int)
    /// A signed payload failed verification.
    case signature
    /// An answer or stored payload did not decode.
    case undecodable
    /// The store (or its keys, bucket, verifier) is not configured.
    case notConfigured
    /// The store answered with a state older than a signed notification it sent (an answer that lags the notification):
    /// nothing is projected and the item is retried.
    case storeBehind
    /// Anything else.
    case other

    /// The short stable name counted and exported: `timeout`, `connection`, `truncated`, `too_large`, `tls`, `budget`,
    /// `http_<status>` (100–599; any other status is `http_other`), `signature`, `undecodable`, `not_configured`, `store_behind`, `other`.
    public var name: String {
        switch self {
        case .timeout: return "timeout"
        case .connection: return "connection"
        case .truncated: return "truncated"
        case .tooLarge: return "too_large"
        case .tls: return "tls"
        case .budget: return "budget"
        case .http(let status): return (100...599).contains(status) ? "http_\(status)" : "http_other"
        case .signature: return "signature"
        case .undecodable: return "undecodable"
        case .notConfigured: return "not_configured"
        case .storeBehind: return "store_behind"
        case .other: return "other"
        }
    }

    public var description: String { name }

    /// The kind `error` carries (`KindedFailure`), else `.other`.
    public init(of error: any Error) {
        self = (error as? any KindedFailure)?.failureKind ?? .other
    }
}

/// An error that knows its `FailureKind`.
public protocol KindedFailure: Error {
    /// The kind counted for this error.
    var failureKind: FailureKind { get }
}

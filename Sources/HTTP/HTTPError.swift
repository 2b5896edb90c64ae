import BillingCore

/// Why an HTTP exchange failed before a complete response arrived.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connect or total timeout elapsed (`seconds` is the limit that applied).
    case timeout(seconds: Double, message: String)
    /// The connection could not be made or broke (refused, reset, empty reply), with curl's message.
    case connectionFailed(String)
    /// TLS handshake or certificate verification failed, with curl's message.
    case tls(String)
    /// The URL could not be parsed or uses an unsupported scheme.
    case invalidURL(String)
    /// Plain `http://` to a host that is not loopback; refused before any I/O.
    case insecureScheme(host: String)
    /// The body ended before the announced length (e.g. `CURLE_PARTIAL_FILE`).
    case truncatedBody(String)
    /// The body grew past the client's `maxResponseBytes`; the transfer was aborted while receiving.
    case responseTooLarge(limitBytes: Int)
    /// The request itself is unusable (bad method, CR/LF in a header), refused before any I/O.
    case invalidRequest(String)
    /// Any other libcurl failure: its `CURLcode` and message.
    case other(code: Int, message: String)

    public var description: String {
        switch self {
        case .timeout(let seconds, let message): return "HTTP timeout after \(seconds) s: \(message)"
        case .connectionFailed(let message): return "HTTP connection failed: \(message)"
        case .tls(let message): return "TLS failure: \(message)"
        case .invalidURL(let message): return "invalid URL: \(message)"
        case .insecureScheme(let host): return "plain http is allowed only for loopback hosts, not '\(host)'; use https"
        case .truncatedBody(let message): return "response body truncated: \(message)"
        case .responseTooLarge(let limit): return "response body larger than the \(limit)-byte limit; transfer aborted"
        case .invalidRequest(let message): return "invalid request: \(message)"
        case .other(let code, let message): return "libcurl error \(code): \(message)"
        }
    }

    /// True for failures worth retrying with backoff (timeouts, broken connections, truncated bodies).
    public var isTransient: Bool {
        switch self {
        case .timeout, .connectionFailed, .truncatedBody: return true
        case .tls, .invalidURL, .insecureScheme, .invalidRequest, .responseTooLarge, .other: return false
        }
    }
}

extension HTTPError: KindedFailure {
    /// `timeout`, `connection`, `tls`, `truncated`, `too_large`; a request refused before any I/O or another libcurl
    /// failure is `other`.
    public var failureKind: FailureKind {
        switch self {
        case .timeout: return .timeout
        case .connectionFailed: return .connection
        case .tls: return .tls
        case .truncatedBody: return .truncated
        case .responseTooLarge: return .tooLarge
        case .invalidURL, .insecureScheme, .invalidRequest, .other: return .other
        }
    }
}

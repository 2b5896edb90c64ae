/// Settings of an `HTTPClient`: default timeouts, trust store, pool size, user agent, response size limit and log hook.
public struct HTTPClientConfiguration: Sendable {
    /// Limits used when `send` is not given its own.
    public var timeouts: HTTPTimeouts
    /// A PEM file of trusted CA certificates; nil uses the system store. Verification is always on.
    public var caFilePath: String?
    /// How many idle easy handles (each with its live connections) the pool keeps.
    public var maxIdleHandles: Int
    /// Sent as `User-Agent` unless the request sets one.
    public var userAgent: String
    /// The largest response body accepted, in bytes (after content decoding); a larger one aborts the transfer
    /// while it arrives with `HTTPError.responseTooLarge`.
    public var maxResponseBytes: Int
    /// Called once per exchange, success or failure, with masked data only.
    public var log: (@Sendable (HTTPExchangeLog) -> Void)?

    /// Makes settings; every argument has a production default.
    public init(timeouts: HTTPTimeouts = .standard, caFilePath: String? = nil, maxIdleHandles: Int = 32,
                userAgent: String = "iap-pipeline/1.0", maxResponseBytes: Int = HTTPClientConfiguration.defaultMaxResponseBytes,
                log: (@Sendable (HTTPExchangeLog) -> Void)? = nil) {
        self.timeouts = timeouts
        self.caFilePath = caFilePath
        self.maxIdleHandles = maxIdleHandles
        self.userAgent = userAgent
        self.maxResponseBytes = maxResponseBytes
        self.log = log
    }

    /// 8 MiB: far above any store answer the pipeline asks for (a page of statuses or history is tens of KiB).
    public static let defaultMaxResponseBytes = 8 << 20
}

/// Settings of an `HTTPClient`: default timeouts, trust store, pool size, user agent and log hook.
public struct HTTPClientConfiguration: Sendable {
    /// Limits used when `send` is not given its own.
    public var timeouts: HTTPTimeouts
    /// A PEM file of trusted CA certificates; nil uses the system store. Verification is always on.
    public var caFilePath: String?
    /// How many idle easy handles (each with its live connections) the pool keeps.
    public var maxIdleHandles: Int
    /// Sent as `User-Agent` unless the request sets one.
    public var userAgent: String
    /// Called once per exchange, success or failure, with masked data only.
    public var log: (@Sendable (HTTPExchangeLog) -> Void)?

    /// Makes settings; every argument has a production default.
    public init(timeouts: HTTPTimeouts = .standard, caFilePath: String? = nil, maxIdleHandles: Int = 32,
                userAgent: String = "iap-pipeline/1.0", log: (@Sendable (HTTPExchangeLog) -> Void)? = nil) {
        self.timeouts = timeouts
        self.caFilePath = caFilePath
        self.maxIdleHandles = maxIdleHandles
        self.userAgent = userAgent
        self.log = log
    }
}

/// One attempt of a store API call, as a `store_query` row records it.
public struct StoreCallAttempt: Sendable, Hashable {
    /// The rate-limit endpoint name (`apple.getAllSubscriptionStatuses`) or another label (`google.oauth`).
    public let endpoint: String
    /// 1 for the first try, 2 for the first retry, …
    public let attempt: Int
    /// `ok`, `rate_limited`, `retryable`, `not_found`, `gone`, `invalid_request`, `unauthorized`, `permanent`,
    /// or a transport failure: `timeout`, `connection_failed`, `truncated_body`, `tls`, `transport`.
    public let outcome: String
    public let httpStatus: Int?
    /// The store's own error code, raw (Apple errorCode, Google reason).
    public let storeErrorCode: String?
    public let latencyMilliseconds: Int
}

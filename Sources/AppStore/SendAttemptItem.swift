/// One delivery attempt of a notification.
public struct SendAttemptItem: Sendable, Decodable, Hashable {
    /// Milliseconds since the epoch.
    public var attemptDate: Int64?
    /// SUCCESS, TIMED_OUT, TLS_ISSUE, … kept raw.
    public var sendAttemptResult: String?
}

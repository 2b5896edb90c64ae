/// One notification in the history, still signed, with its delivery attempts.
public struct NotificationHistoryResponseItem: Sendable, Decodable {
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?
}

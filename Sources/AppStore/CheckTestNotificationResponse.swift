/// Get Test Notification Status: the signed test notification and its delivery attempts.
public struct CheckTestNotificationResponse: Sendable, Decodable {
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?
}

/// Request a Test Notification: the token to poll with.
public struct SendTestNotificationResponse: Sendable, Decodable {
    public var testNotificationToken: String?
}

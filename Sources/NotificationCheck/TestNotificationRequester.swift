import AppStore
import Foundation
import StoreCalls

/// Apple's two test-notification endpoints, as `check-notifications` uses them.
public protocol TestNotificationRequester: Sendable {
    /// Request a Test Notification: returns the token to poll with.
    func requestTestNotification() throws(StoreCallError) -> String
    /// Get Test Notification Status: the notification's UUID and its delivery attempts so far.
    func testNotificationDelivery(token: String) throws(StoreCallError) -> TestNotificationDelivery
}

/// What Get Test Notification Status says about one TEST notification.
public struct TestNotificationDelivery: Sendable, Equatable {
    /// The notification's `notificationUUID` (InboundWebhookEvent.provider_event_id once stored).
    public let notificationUUID: String?
    /// Each attempt's `sendAttemptResult` (SUCCESS, TIMED_OUT, …), oldest first.
    public let attemptResults: [String]

    /// Declares a delivery.
    public init(notificationUUID: String?, attemptResults: [String]) {
        self.notificationUUID = notificationUUID
        self.attemptResults = attemptResults
    }
}

extension AppStoreClient: TestNotificationRequester {
    /// Get Test Notification Status, verified, reduced to what the check needs.
    public func testNotificationDelivery(token: String) throws(StoreCallError) -> TestNotificationDelivery {
        let entry = try testNotificationStatus(token: token)
        return TestNotificationDelivery(notificationUUID: entry.notification.notificationUUID,
                                        attemptResults: entry.sendAttempts.compactMap(\.sendAttemptResult))
    }
}

import Foundation
import Postgres
import StoreCalls

/// The notification-URL self-diagnosis: Request a Test Notification, wait until Get Test Notification Status shows a
/// delivery attempt, then wait until the TEST notification is stored in inbound_webhook_event (by its notificationUUID).
/// Healthy only when Apple's last attempt is SUCCESS and the row arrived within the timeout.
struct AppleNotificationCheck {
    let requester: any TestNotificationRequester
    let database: PostgresConnection
    let settings: NotificationCheckSettings
    /// Waits between polls (tests may shorten it).
    var sleep: @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }

    /// Runs the check; a store error is thrown (the job fails), a missing delivery is an unhealthy verdict.
    func run() throws -> NotificationVerdict {
        let started = Date()
        let deadline = started.addingTimeInterval(settings.timeoutSeconds)
        let token = try requester.requestTestNotification()
        var delivery = try requester.testNotificationDelivery(token: token)
        while delivery.attemptResults.isEmpty && Date() < deadline {
            sleep(settings.pollSeconds)
            delivery = try requester.testNotificationDelivery(token: token)
        }
        guard let uuid = delivery.notificationUUID else {
            return NotificationVerdict(store: "apple", healthy: false, detail: "Get Test Notification Status named no notificationUUID")
        }
        guard let last = delivery.attemptResults.last else {
            return NotificationVerdict(store: "apple", healthy: false,
                                       detail: "Apple made no delivery attempt of TEST \(uuid) within \(seconds(settings.timeoutSeconds))")
        }
        guard last == "SUCCESS" else {
            return NotificationVerdict(store: "apple", healthy: false,
                                       detail: "Apple could not deliver TEST \(uuid) to the notification URL: \(delivery.attemptResults.joined(separator: ", "))")
        }
        while true {
            if let received = try database.query("""
                SELECT received_at FROM inbound_webhook_event WHERE provider = 'APPLE' AND provider_event_id = $1
                """, [uuid]).first?.decode(Date.self, "received_at") {
                return NotificationVerdict(store: "apple", healthy: true,
                                           detail: "TEST \(uuid) delivered (SUCCESS) and stored at \(PostgresTimestamp.iso8601(received)), "
                                               + "\(seconds(Date().timeIntervalSince(started))) after the request")
            }
            guard Date() < deadline else { break }
            sleep(settings.pollSeconds)
        }
        return NotificationVerdict(store: "apple", healthy: false,
                                   detail: "Apple delivered TEST \(uuid) (SUCCESS) but it is not in inbound_webhook_event after "
                                       + "\(seconds(settings.timeoutSeconds)): the receiver accepted it without storing it")
    }

    private func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
}

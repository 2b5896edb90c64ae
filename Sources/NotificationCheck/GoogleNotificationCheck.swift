import Foundation
import Postgres

/// Google's equivalent: Play cannot be asked to send a test RTDN through the API, so the check is the age of the newest
/// RTDN stored in inbound_webhook_event against a threshold (a live app receives RTDNs every few minutes to hours).
struct GoogleNotificationCheck {
    let database: PostgresConnection
    let asOf: Date
    let maxAgeHours: Int

    /// The verdict: healthy when an RTDN arrived within `maxAgeHours` before the as-of instant.
    func run() throws -> NotificationVerdict {
        let newest = try database.query("""
            SELECT max(received_at) AS newest FROM inbound_webhook_event WHERE provider = 'GOOGLE' AND received_at <= $1
            """, [asOf]).first?.decodeIfPresent(Date.self, "newest")
        guard let newest else {
            return NotificationVerdict(store: "google", healthy: false, detail: "no RTDN has ever been stored")
        }
        let hours = asOf.timeIntervalSince(newest) / 3_600
        let detail = String(format: "newest RTDN stored %.1f h ago (%@), threshold %d h", hours, PostgresTimestamp.iso8601(newest), maxAgeHours)
        return NotificationVerdict(store: "google", healthy: hours <= Double(maxAgeHours), detail: detail)
    }
}

import BillingCore
import Foundation
import Postgres

/// `inbound_webhook_event` rows of the subscription as timeline entries: the notification type, when it was received,
/// and whether it was processed (as of the as-of instant), failed (with the error) or is still waiting.
/// An event belongs to the subscription when one of its history rows came from it, or (Google) when its business key
/// starts with one of the subscription's purchase tokens; an Apple event that produced no row cannot be attributed
/// without decoding its signed payload and is not shown.
enum WebhookSteps {
    static func read(_ id: String, asOf: Date, mask: IdentifierMask, database: PostgresConnection) throws -> [TimelineEntry] {
        try database.query("""
            SELECT e.provider::text AS provider, e.provider_event_id, e.provider_business_key, e.environment, e.verified,
                   e.received_at, e.processed_at, e.processing_error, e.processing_attempts,
                   e.payload #>> '{notification,notificationType}' AS apple_type, e.payload #>> '{notification,subtype}' AS apple_subtype
            FROM inbound_webhook_event e
            WHERE e.received_at <= $2
              AND (e.id IN (SELECT inbound_event_id FROM billing_transaction WHERE subscription_id = $1::uuid)
                   OR (e.provider = 'GOOGLE' AND EXISTS (
                       SELECT 1 FROM google_purchase_token t WHERE t.subscription_id = $1::uuid
                         AND left(e.provider_business_key, length(t.purchase_token) + 1) = t.purchase_token || ':')))
            ORDER BY e.received_at, e.provider_event_id
            """, [id, asOf]).rows.map { row in
            let provider = try row.decode(String.self, "provider")
            let event: String
            if provider == "APPLE" {
                let type = try row.decodeIfPresent(String.self, "apple_type") ?? "notification"
                event = type + (try row.decodeIfPresent(String.self, "apple_subtype").map { "·" + $0 } ?? "")
            } else {
                event = googleType(try row.decodeIfPresent(String.self, "provider_business_key"))
            }
            var details: [(String, String)] = [("event_id", mask.show(try row.decode(String.self, "provider_event_id")))]
            let processed = try row.decodeIfPresent(Date.self, "processed_at").flatMap { $0 <= asOf ? $0 : nil }
            if let processed {
                details.append(("processed_at", ExplainFormat.instant(processed)))
            } else if let error = try row.decodeIfPresent(String.self, "processing_error") {
                details.append(("failed", mask.scrub(error)))
            } else {
                details.append(("processed_at", "not yet"))
            }
            details.append(("attempts", String(try row.decode(Int64.self, "processing_attempts"))))
            details.append(("environment", try row.decode(String.self, "environment")))
            details.append(("verified", try row.decode(Bool.self, "verified") ? "yes" : "no"))
            let received = try row.decode(Date.self, "received_at")
            return TimelineEntry(at: received, recordedAt: received, source: "inbound_webhook_event", event: provider + " " + event,
                                 details: details)
        }
    }

    /// `SUBSCRIPTION_RECOVERED (1)` from a Google business key `token:type:eventTimeMillis`.
    static func googleType(_ businessKey: String?) -> String {
        let parts = businessKey?.split(separator: ":") ?? []
        guard parts.count >= 2, let number = Int(parts[parts.count - 2]) else { return "RTDN" }
        return "RTDN type \(number)" + (GoogleNotificationType(rawValue: number).map { " \($0)" } ?? "")
    }
}

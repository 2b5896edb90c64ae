import Foundation
import Postgres

/// One `inbound_webhook_event` row as the repair jobs read it.
public struct InboundEvent: Sendable, Hashable {
    public let id: String
    /// APPLE or GOOGLE.
    public let provider: String
    public let providerEventId: String
    /// SANDBOX, PRODUCTION or UNKNOWN, as the webhook receiver recorded it.
    public let environment: String
    public let verified: Bool
    /// The stored `payload` as JSON text.
    public let payload: String
    public let attempts: Int

    /// Reads an event from a row with the columns of `InboundEvent.columns`.
    init(row: PostgresRow) throws {
        id = try row.decode(String.self, "id")
        provider = try row.decode(String.self, "provider")
        providerEventId = try row.decode(String.self, "provider_event_id")
        environment = try row.decode(String.self, "environment")
        verified = try row.decode(Bool.self, "verified")
        payload = try row.decode(String.self, "payload")
        attempts = try row.decode(Int.self, "processing_attempts")
    }

    /// The select list `init(row:)` expects.
    static let columns = """
        e.id::text AS id, e.provider::text AS provider, e.provider_event_id, e.environment, e.verified, e.payload::text AS payload,
        e.processing_attempts
        """
}

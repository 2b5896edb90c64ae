import Foundation
import Postgres
import TestSupport

/// Rows inserted by hand for the monitoring tests: each subscription gets its own user and billing account (an
/// entitlement is unique per account and plan) on one shared plan.
struct MonitoringFixture {
    let db: PostgresConnection
    let planID: UUID
    /// The instant every test counts as of.
    static let asOf = Date(timeIntervalSince1970: 1_795_932_000) // 2026-11-29T06:00:00Z

    init(_ db: PostgresConnection) throws {
        self.db = db
        let plan = try db.query("""
            INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ($1, 'Pro monthly', 'MONTHLY', 'P1M') RETURNING id
            """, ["PRO_\(UUID().uuidString)"]).first
        planID = try plan?.decode(UUID.self, "id") ?? UUID()
    }

    /// `hours` before the as-of instant.
    static func ago(hours: Double) -> Date { asOf.addingTimeInterval(-hours * 3_600) }

    /// A subscription with its own account; `entitled` adds an entitlement sourced from it (nil: none).
    @discardableResult
    func subscription(_ provider: String, _ status: String, createdAt: Date = ago(hours: 1_000), acknowledgement: String = "NOT_REQUIRED",
                      lastVerifiedAt: Date? = nil, entitled: Bool? = nil) throws -> UUID {
        let user = try db.query("INSERT INTO app_user (email) VALUES ($1) RETURNING id", ["\(UUID().uuidString)@example.com"]).first
        let account = try db.query("INSERT INTO billing_account (user_id) VALUES ($1) RETURNING id", [try user?.decode(UUID.self, "id")]).first
        let accountID = try account?.decode(UUID.self, "id")
        let row = try db.query("""
            INSERT INTO subscription (provider, billing_account_id, plan_id, status, acknowledgement_status, created_at, last_verified_at)
            VALUES ($1::billing_provider, $2, $3, $4::subscription_status, $5::acknowledgement_status, $6, $7) RETURNING id
            """, [provider, accountID, planID, status, acknowledgement, createdAt, lastVerifiedAt]).first
        let id = try row?.decode(UUID.self, "id") ?? UUID()
        if let entitled {
            try db.execute("""
                INSERT INTO entitlement (billing_account_id, plan_id, source_subscription_id, is_active) VALUES ($1, $2, $3, $4)
                """, [accountID, planID, id, entitled])
        }
        return id
    }

    /// A drift_event row.
    func drift(_ subscription: UUID, _ kind: String, detectedAt: Date, repaired: Bool) throws {
        try db.execute("""
            INSERT INTO drift_event (subscription_id, kind, field, database_value, store_value, detected_at, repaired)
            VALUES ($1, $2, 'f', 'a', 'b', $3, $4)
            """, [subscription, kind, detectedAt, repaired])
    }

    /// A current Google purchase token row.
    func token(_ subscription: UUID, _ token: String, createdAt: Date) throws {
        try db.execute("INSERT INTO google_purchase_token (subscription_id, purchase_token, created_at) VALUES ($1, $2, $3)",
                       [subscription, token, createdAt])
    }

    /// A history row with `key`.
    func transaction(_ subscription: UUID, key: String, effectiveAt: Date) throws {
        try db.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            VALUES ($1, 'GOOGLE', 'PURCHASED', $2, $3, '{}')
            """, [subscription, key, effectiveAt])
    }

    /// A stored webhook event.
    func webhook(_ provider: String, receivedAt: Date, processed: Bool, error: String? = nil) throws {
        try db.execute("""
            INSERT INTO inbound_webhook_event (provider, provider_event_id, payload, received_at, processed_at, processing_error)
            VALUES ($1::billing_provider, $2, '{}', $3, $4, $5)
            """, [provider, UUID().uuidString, receivedAt, processed ? receivedAt : nil, error])
    }

    /// A store_query attempt.
    func storeQuery(_ provider: String, outcome: String, status: Int?, at: Date) throws {
        try db.execute("""
            INSERT INTO store_query (provider, endpoint, outcome, http_status, latency_ms, attempted_at)
            VALUES ($1::billing_provider, 'get', $2, $3, 5, $4)
            """, [provider, outcome, status, at])
    }

    /// A finished job_run row with its summary counts (JSON) and dry-run flag.
    func jobRun(_ job: String, status: String, asOf: Date, counts: String = "{}", dryRun: Bool = false) throws {
        try db.execute("""
            INSERT INTO job_run (job_name, status, started_at, finished_at, as_of, host, pid, counts, dry_run)
            VALUES ($1, $2, $3, $3, $3, 'test', 1, $4::jsonb, $5)
            """, [job, status, asOf, counts, dryRun])
    }
}

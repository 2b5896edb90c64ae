import Foundation
import Postgres
import TestSupport

/// History rows written by hand into a fresh database, for worlds small enough to work out on paper.
struct HandLedger {
    let db: PostgresConnection
    /// The monthly plan every hand subscription bills.
    let planId: UUID
    let planCode: String

    init(_ name: String) throws {
        let (_, db) = try TestDatabase.migrated(name)
        self.db = db
        planCode = "pro_monthly"
        let plan = try db.query("""
            INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ($1, 'Pro monthly', 'MONTHLY', 'P1M') RETURNING id
            """, [planCode]).first
        planId = try plan?.decode(UUID.self, "id") ?? UUID()
    }

    /// A new subscription of `provider` (its own user and billing account).
    func subscription(_ provider: String) throws -> UUID {
        let user = try db.query("INSERT INTO app_user (email) VALUES ($1) RETURNING id", ["\(UUID().uuidString)@example.com"]).first
        let account = try db.query("INSERT INTO billing_account (user_id) VALUES ($1) RETURNING id",
                                   [try user?.decode(UUID.self, "id") ?? UUID()]).first
        let row = try db.query("""
            INSERT INTO subscription (provider, billing_account_id, plan_id, status) VALUES ($1::billing_provider, $2, $3, 'ACTIVE') RETURNING id
            """, [provider, try account?.decode(UUID.self, "id") ?? UUID(), planId]).first
        return try row?.decode(UUID.self, "id") ?? UUID()
    }

    /// One history row. A charge (`amount` > 0 with `product`) bills one month of the plan from `at`.
    func row(_ subscription: UUID, _ provider: String, _ type: String, _ at: String, amount: Int64? = nil,
             currency: String = "USD", country: String, product: String? = nil, reason: String? = nil,
             recordedAt: String? = nil, isTest: Bool = false) throws {
        let charge = product != nil
        try db.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
              currency_code, country_code, reason, raw_payload, product_id, plan_id, billing_period, period_start_at, period_end_at,
              recorded_at, is_test)
            VALUES ($1, $2::billing_provider, $3::billing_event_type, $4, $5::timestamptz, $6, $7, $8, $9, '{}'::jsonb, $10,
                    CASE WHEN $11 THEN $12::uuid END, CASE WHEN $11 THEN 'P1M' END, CASE WHEN $11 THEN $5::timestamptz END,
                    CASE WHEN $11 THEN $5::timestamptz + interval '1 month' END, COALESCE($13::timestamptz, $5::timestamptz), $14)
            """, [subscription, provider, type, UUID().uuidString, at, amount, amount == nil ? nil : currency, country, reason,
                  product, charge, planId, recordedAt, isTest])
    }

    /// A subscription_price_change row (the per-subscriber state the projection keeps).
    func priceChange(_ subscription: UUID, _ provider: String, mode: String, state: String, product: String, region: String,
                     old: Int64, new: Int64, announcedAt: String, currency: String = "USD") throws {
        try db.execute("""
            INSERT INTO subscription_price_change (subscription_id, provider, mode, state, currency_code, old_amount_micros,
              new_amount_micros, product_id, region_code, announced_at, created_at)
            VALUES ($1, $2::billing_provider, $3::price_change_mode, $4::price_change_state, $5, $6, $7, $8, $9, $10::timestamptz,
                    $10::timestamptz)
            """, [subscription, provider, mode, state, currency, old, new, product, region, announcedAt])
    }
}

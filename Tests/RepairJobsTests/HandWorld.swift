import Foundation
import Postgres
import TestSupport

/// A hand-made history in a fresh migrated database: plans, accounts, subscriptions and billing_transaction rows
/// inserted directly, so a report's numbers can be worked out by hand.
struct HandWorld {
    let db: PostgresConnection
    private var keys = 0

    /// A fresh migrated database `name`.
    init(_ name: String) throws {
        db = try TestDatabase.migrated(name).1
    }

    /// A plan of `period` (ISO 8601: P1W, P1M, P1Y…).
    func plan(_ code: String, _ period: String) throws -> UUID {
        let unit = period.hasSuffix("Y") ? "YEARLY" : "MONTHLY"
        return try db.query("INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ($1, $1, $2::interval_unit, $3) RETURNING id",
                            [code, unit, period]).first?.decode(UUID.self, "id") ?? UUID()
    }

    /// A new billing account.
    func account() throws -> UUID {
        let user = try db.query("INSERT INTO app_user DEFAULT VALUES RETURNING id").first?.decode(UUID.self, "id") ?? UUID()
        return try db.query("INSERT INTO billing_account (user_id) VALUES ($1) RETURNING id", [user]).first?.decode(UUID.self, "id") ?? UUID()
    }

    /// A subscription of `account` (a new one when nil) to `plan`; `status` and the current-state columns are what a
    /// report that trusted them would read (the reports must not).
    func subscription(_ provider: String, plan: UUID, account: UUID? = nil, status: String = "ACTIVE", test: Bool = false,
                      currentPrice: Int64? = nil, currency: String? = nil) throws -> UUID {
        let owner = try account ?? self.account()
        return try db.query("""
            INSERT INTO subscription (provider, billing_account_id, plan_id, status, is_test_purchase, current_recurring_price_micros,
                                      current_currency_code, current_period_start_at, current_period_end_at)
            VALUES ($1::billing_provider, $2, $3, $4::subscription_status, $5, $6, $7,
                    CASE WHEN $6::bigint IS NULL THEN NULL ELSE now() END, CASE WHEN $6::bigint IS NULL THEN NULL ELSE now() + interval '1 month' END)
            RETURNING id
            """, [provider, owner, plan, status, test, currentPrice, currency]).first?.decode(UUID.self, "id") ?? UUID()
    }

    /// A history row; a charge when `amount` and `periodEnd` are given (`periodStart` = `at`); `expiresAt` is the row's
    /// store expiry (a grace row's grace end); `product` and `country` the store's product id and country code. Returns its
    /// transaction key.
    @discardableResult
    mutating func row(_ subscription: UUID, _ provider: String, _ type: String, at: String, amount: Int64? = nil,
                      currency: String? = nil, plan: UUID? = nil, period: String? = nil, periodEnd: String? = nil,
                      recordedAt: String? = nil, refundKind: String? = nil, refunds: String? = nil,
                      voidedSource: Int? = nil, voidedReason: Int? = nil, test: Bool = false,
                      expiresAt: String? = nil, product: String? = nil, country: String? = nil) throws -> String {
        keys += 1
        let key = "\(provider):hand:\(keys):\(type)"
        _ = try db.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                currency_code, plan_id, billing_period, period_start_at, period_end_at, recorded_at, refund_kind,
                refunded_transaction_key, voided_source, voided_reason, is_test, raw_payload, expires_at, product_id, country_code)
            VALUES ($1, $2::billing_provider, $3::billing_event_type, $4, $5::timestamptz, $6, $7, $8, $9,
                    CASE WHEN $10::timestamptz IS NULL THEN NULL ELSE $5::timestamptz END, $10::timestamptz,
                    COALESCE($11::timestamptz, $5::timestamptz), $12::refund_kind, $13, $14::integer, $15::integer, $16, '{}',
                    $17::timestamptz, $18, $19)
            """, [subscription, provider, type, key, at, amount, currency, plan, period, periodEnd, recordedAt, refundKind,
                  refunds, voidedSource, voidedReason, test, expiresAt, product, country])
        return key
    }

    /// A monthly rate of `currency` to USD.
    func rate(_ month: String, _ currency: String, _ rate: String) throws {
        _ = try db.execute("INSERT INTO fx_rate (month, from_currency, to_currency, rate, source) VALUES ($1::date, $2, 'USD', $3::numeric, 'hand')",
                           [month, currency, rate])
    }
}

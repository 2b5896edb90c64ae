import Foundation
import JobKit
import Migrations
import Postgres
import TestSupport
import Testing

/// The history migration: applied to a database that holds data from before it, it yields the same schema as on an
/// empty database and backfills what the stored rows allow; its CHECKs enforce the sign rule.
@Suite(.serialized) struct HistoryMigrationTests {
    static let day: TimeInterval = 86_400

    /// The schema: every column with its type and nullability, every constraint and every trigger.
    func schema(_ db: PostgresConnection) throws -> [String] {
        let columns = try db.query("""
            SELECT table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':' || coalesce(column_default, '') AS c
            FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1
            """).rows.map { try $0.decode(String.self, "c") }
        let constraints = try db.query("""
            SELECT conrelid::regclass::text || ':' || conname || ':' || pg_get_constraintdef(oid) AS c
            FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1
            """).rows.map { try $0.decode(String.self, "c") }
        let triggers = try db.query("""
            SELECT tgrelid::regclass::text || ':' || tgname AS c FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1
            """).rows.map { try $0.decode(String.self, "c") }
        let indexes = try db.query("SELECT indexdef AS c FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1")
            .rows.map { try $0.decode(String.self, "c") }
        return columns + constraints + triggers + indexes
    }

    @Test func fromTheSeventhMigrationWithDataTheSchemaEqualsAFreshOne() throws {
        let all = try Migrator.shippedFiles()
        let old = try PostgresConnection(configuration: try TestDatabase.fresh("test_history_from_0007"))
        try Migrator(database: old, files: all.filter { $0.version <= 7 }).migrate()
        let legacy = try LegacyRows.insert(old)
        try Migrator(database: old, files: all).migrate()
        let (_, fresh) = try TestDatabase.migrated("test_history_fresh")
        #expect(try schema(old) == schema(fresh))

        // Backfill: the Apple refund's positive amount is negated and names its charge.
        let apple = try #require(try old.query("""
            SELECT amount_micros, refunded_transaction_key, refund_kind::text AS kind FROM billing_transaction
            WHERE transaction_key = 'APPLE:1:1:REFUNDED'
            """).first)
        #expect(try apple.decode(Int64.self, "amount_micros") == -9_990_000)
        #expect(try apple.decode(String.self, "refunded_transaction_key") == "APPLE:1:1")
        #expect(try apple.decode(String.self, "kind") == "REFUND")
        // The Google void gets the refunded order's amount, negated, and its charge.
        let google = try #require(try old.query("""
            SELECT amount_micros, currency_code, refunded_transaction_key FROM billing_transaction WHERE transaction_key = 'GOOGLE:t:GPA.1..0:REFUNDED'
            """).first)
        #expect(try google.decode(Int64.self, "amount_micros") == -2_990_000)
        #expect(try google.decode(String.self, "currency_code") == "USD")
        #expect(try google.decode(String.self, "refunded_transaction_key") == "GOOGLE:t:GPA.1..0")
        // The weekly renewal dated "expiry minus a month" (before its purchase) is redated to expiry minus a week,
        // and its plan is the weekly plan although the subscription is now monthly.
        let renewal = try #require(try old.query("""
            SELECT effective_at, period_start_at, period_end_at, billing_period, plan_id FROM billing_transaction
            WHERE transaction_key = 'GOOGLE:t:GPA.1..0'
            """).first)
        #expect(try renewal.decode(Date.self, "effective_at") == legacy.purchase.addingTimeInterval(7 * Self.day))
        #expect(try renewal.decode(Date.self, "period_start_at") == legacy.purchase.addingTimeInterval(7 * Self.day))
        #expect(try renewal.decode(Date.self, "period_end_at") == legacy.purchase.addingTimeInterval(14 * Self.day))
        #expect(try renewal.decode(String.self, "billing_period") == "P1W")
        #expect(try renewal.decode(UUID.self, "plan_id") == legacy.weeklyPlan)
        // recorded_at is when the row was written (no webhook); never before the row's effective instant here.
        let early = try old.query("SELECT count(*)::int8 AS n FROM billing_transaction WHERE recorded_at < effective_at").first
        #expect(try early?.decode(Int64.self, "n") == 0)
        // The entitlement the subscription granted on its old plan is switched off and kept as an interval.
        let stale = try #require(try old.query("SELECT is_active FROM entitlement WHERE plan_id = $1", [legacy.weeklyPlan]).first)
        #expect(try !stale.decode(Bool.self, "is_active"))
        let intervals = try old.query("SELECT count(*)::int8 AS n FROM entitlement_interval WHERE subscription_id = $1", [legacy.google])
        #expect(try intervals.first?.decode(Int64.self, "n") == 1)
    }

    @Test func signRuleAndRefundKindAreChecked() throws {
        let (_, db) = try TestDatabase.migrated("test_history_checks")
        let seed = try SeedRows.insert(db)
        let at = Date(timeIntervalSince1970: 1_767_225_600)
        func insert(_ type: String, _ key: String, amount: Int64?, kind: String?) throws {
            try db.execute("""
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                  currency_code, refund_kind, raw_payload)
                VALUES ($1, 'APPLE', $2::billing_event_type, $3, $4, $5, CASE WHEN $5::bigint IS NULL THEN NULL ELSE 'USD' END,
                        $6::refund_kind, '{}')
                """, [seed.subscriptionID, type, key, at, amount, kind])
        }
        let negativeCharge = try #require(throws: PostgresError.self) { try insert("RENEWED", "A:1", amount: -1, kind: nil) }
        #expect(negativeCharge.sqlState == "23514")
        let positiveRefund = try #require(throws: PostgresError.self) { try insert("REFUNDED", "A:2", amount: 1, kind: "REFUND") }
        #expect(positiveRefund.sqlState == "23514")
        let noKind = try #require(throws: PostgresError.self) { try insert("REFUNDED", "A:3", amount: -1, kind: nil) }
        #expect(noKind.sqlState == "23514")
        try insert("RENEWED", "A:4", amount: 0, kind: nil)
        try insert("REFUNDED", "A:5", amount: -1, kind: "CHARGEBACK")
    }

    @Test func aRefundWithoutAmountTakesItsChargesWhicheverArrivesFirst() throws {
        let (_, db) = try TestDatabase.migrated("test_history_refund_amount")
        let seed = try SeedRows.insert(db)
        let at = Date(timeIntervalSince1970: 1_767_225_600)
        func row(_ type: String, _ key: String, amount: Int64?, refunds: String?) throws {
            try db.execute("""
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                  currency_code, refund_kind, refunded_transaction_key, raw_payload)
                VALUES ($1, 'GOOGLE', $2::billing_event_type, $3, $4, $5, CASE WHEN $5::bigint IS NULL THEN NULL ELSE 'EUR' END,
                        CASE WHEN $6::text IS NULL THEN NULL ELSE 'REFUND'::refund_kind END, $6, '{}')
                """, [seed.subscriptionID, type, key, at, amount, refunds])
        }
        try row("RENEWED", "G:o1", amount: 4_990_000, refunds: nil)
        try row("REFUNDED", "G:o1:REFUNDED", amount: nil, refunds: "G:o1")
        try row("REFUNDED", "G:o2:REFUNDED", amount: nil, refunds: "G:o2")
        try row("RENEWED", "G:o2", amount: 5_990_000, refunds: nil)
        let amounts = try db.query("""
            SELECT transaction_key, amount_micros, currency_code FROM billing_transaction WHERE event_type = 'REFUNDED' ORDER BY 1
            """).rows.map { "\(try $0.decode(String.self, "transaction_key")) \(try $0.decode(Int64.self, "amount_micros")) \(try $0.decode(String.self, "currency_code"))" }
        #expect(amounts == ["G:o1:REFUNDED -4990000 EUR", "G:o2:REFUNDED -5990000 EUR"])
    }
}

/// Rows shaped as the pipeline stored them before the history migration: an Apple refund with a positive amount, a
/// Google weekly renewal dated a month before its expiry, a Google void without amount, an entitlement left active on
/// the plan the subscription left.
struct LegacyRows {
    let purchase: Date
    let weeklyPlan: UUID
    let google: UUID

    static func insert(_ db: PostgresConnection) throws -> LegacyRows {
        let seed = try SeedRows.insert(db)
        let weekly = try #require(try db.query("""
            INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('W', 'Weekly', 'MONTHLY', 'P1W') RETURNING id
            """).first).decode(UUID.self, "id")
        for (plan, product) in [(weekly, "weekly"), (seed.planID, "monthly")] {
            try db.execute("""
                INSERT INTO store_product_mapping (provider, plan_id, product_id, base_plan_id, external_key)
                VALUES ('GOOGLE', $1, $2, 'base', $2)
                """, [plan, product])
        }
        let google = try #require(try db.query("""
            INSERT INTO subscription (provider, billing_account_id, plan_id, status, product_id) VALUES ('GOOGLE', $1, $2, 'ACTIVE', 'monthly')
            RETURNING id
            """, [seed.accountID, seed.planID]).first).decode(UUID.self, "id")
        let purchase = Date(timeIntervalSince1970: 1_767_225_600)   // 2026-01-01T00:00:00Z
        let day = HistoryMigrationTests.day
        func row(_ subscription: UUID, _ provider: String, _ type: String, _ key: String, effective: Date, expires: Date?,
                 order: String?, amount: Int64?) throws {
            try db.execute("""
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, expires_at,
                  order_id, amount_micros, currency_code, reason, raw_payload, created_at)
                VALUES ($1, $2::billing_provider, $3::billing_event_type, $4, $5, $6, $7, $8,
                        CASE WHEN $8::bigint IS NULL THEN NULL ELSE 'USD' END, CASE WHEN $3 = 'REFUNDED' THEN 'REFUND' END, '{}',
                        $9)
                """, [subscription, provider, type, key, effective, expires, order, amount, purchase.addingTimeInterval(30 * day)])
        }
        try row(seed.subscriptionID, "APPLE", "PURCHASED", "APPLE:1:1", effective: purchase, expires: purchase.addingTimeInterval(31 * day),
                order: nil, amount: 9_990_000)
        try row(seed.subscriptionID, "APPLE", "REFUNDED", "APPLE:1:1:REFUNDED", effective: purchase.addingTimeInterval(day),
                expires: nil, order: nil, amount: 9_990_000)
        try row(google, "GOOGLE", "PURCHASED", "GOOGLE:t:GPA.1", effective: purchase, expires: purchase.addingTimeInterval(7 * day),
                order: "GPA.1", amount: 2_990_000)
        // "expiry minus one month": 2026-01-15 minus P1M = 2025-12-15, before the purchase.
        try row(google, "GOOGLE", "RENEWED", "GOOGLE:t:GPA.1..0", effective: purchase.addingTimeInterval(-17 * day),
                expires: purchase.addingTimeInterval(14 * day), order: "GPA.1..0", amount: 2_990_000)
        try row(google, "GOOGLE", "REFUNDED", "GOOGLE:t:GPA.1..0:REFUNDED", effective: purchase.addingTimeInterval(15 * day),
                expires: nil, order: "GPA.1..0", amount: nil)
        try db.execute("""
            INSERT INTO entitlement (billing_account_id, plan_id, source_subscription_id, is_active, valid_from, valid_until)
            VALUES ($1, $2, $3, true, $4, $5)
            """, [seed.accountID, weekly, google, purchase.addingTimeInterval(7 * day), purchase.addingTimeInterval(14 * day)])
        return LegacyRows(purchase: purchase, weeklyPlan: weekly, google: google)
    }
}

import Foundation
import JobKit
import Migrations
import Postgres
import TestSupport
import Testing
import WorldGen

/// The finance-trust migration: money rows survive the deletion of their owner (an erasure anonymises instead),
/// amounts carry their currency, every foreign key is indexed, one current Google token per subscription, and the
/// migration on a database holding a generated world gives the schema of an empty one.
@Suite(.serialized) struct FinanceTrustMigrationTests {
    /// Foreign keys with no index whose leading columns are exactly the key's columns (a partial index counts when its
    /// predicate only leaves out NULL keys, which no parent row can reference).
    static let unindexedForeignKeys = """
        SELECT c.conrelid::regclass::text || '.' || c.conname AS fk
        FROM pg_constraint c
        WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
          AND NOT EXISTS (
            SELECT 1 FROM pg_index i
            WHERE i.indrelid = c.conrelid
              AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
              AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
              AND (i.indpred IS NULL OR pg_get_expr(i.indpred, i.indrelid) ~ '^\\(?[a-z_]+ IS NOT NULL\\)?$'))
        ORDER BY 1
        """

    @Test func everyForeignKeyHasAnIndexLeadingWithItsColumns() throws {
        let (_, db) = try TestDatabase.migrated("test_trust_fk_indexes")
        let missing = try db.query(Self.unindexedForeignKeys).rows.map { try $0.decode(String.self, "fk") }
        #expect(missing == [], "foreign keys without an index: \(missing)")
        // The catalogue query does find one: drop an index the migration added.
        try db.execute("DROP INDEX entitlement_source_subscription_idx")
        let found = try db.query(Self.unindexedForeignKeys).rows.map { try $0.decode(String.self, "fk") }
        #expect(found == ["entitlement.entitlement_source_subscription_id_fkey"])
    }

    @Test func deletingAUserAccountOrSubscriptionNeverTakesMoneyRowsWithIt() throws {
        let (_, db) = try TestDatabase.migrated("test_trust_restrict")
        let seed = try SeedRows.insert(db)
        try Self.charge(db, seed, key: "APPLE:1:1", amount: 9_990_000)
        try db.execute("""
            INSERT INTO subscription_price_change (subscription_id, provider, mode, state, currency_code, new_amount_micros)
            VALUES ($1, 'APPLE', 'PRICE_INCREASE', 'PENDING', 'USD', 10990000)
            """, [seed.subscriptionID])
        for (statement, id) in [("DELETE FROM app_user WHERE id = $1", seed.userID),
                                ("DELETE FROM billing_account WHERE id = $1", seed.accountID),
                                ("DELETE FROM subscription WHERE id = $1", seed.subscriptionID)] {
            let error = try #require(throws: PostgresError.self) { try db.execute(statement, [id]) }
            #expect(error.sqlState == "23503", "\(statement): \(error)")
        }
        #expect(try Self.count(db, "billing_transaction") == 1)
        #expect(try Self.count(db, "subscription_price_change") == 1)
        #expect(try Self.count(db, "app_user") == 1)
    }

    @Test func erasureAnonymisesTheUserAndKeepsEveryAmount() throws {
        let (_, db) = try TestDatabase.migrated("test_trust_erasure")
        let seed = try SeedRows.insert(db)
        let other = try SeedRows.insert(db)
        let token = UUID()
        try db.execute("INSERT INTO apple_subscription_identity (subscription_id, original_transaction_id, app_account_token) VALUES ($1, '1', $2)",
                       [seed.subscriptionID, token])
        let event = try #require(try db.query("""
            INSERT INTO inbound_webhook_event (provider, provider_event_id, payload) VALUES ('APPLE', 'n1', $1::jsonb) RETURNING id
            """, ["{\"appAccountToken\":\"\(token.uuidString)\"}"]).first).decode(UUID.self, "id")
        try Self.charge(db, seed, key: "APPLE:1:1", amount: 9_990_000, payload: "{\"appAccountToken\":\"\(token.uuidString)\"}", event: event)
        try Self.charge(db, other, key: "APPLE:2:2", amount: 4_990_000)
        let tokenBefore = try Self.text(db, "SELECT account_token::text AS v FROM billing_account WHERE id = $1", seed.accountID)
        let money = "SELECT string_agg(transaction_key || ' ' || amount_micros || ' ' || currency_code || ' ' || effective_at, ',' ORDER BY transaction_key) AS v FROM billing_transaction"
        let moneyBefore = try Self.text(db, money)

        let changed = try #require(try db.query("SELECT erase_app_user($1, 'test') AS n", [seed.userID]).first).decode(Int64.self, "n")
        #expect(changed == 5, "email, account token, app account token, webhook payload, history payload")
        #expect(try Self.text(db, "SELECT coalesce(email, 'none') AS v FROM app_user WHERE id = $1", seed.userID) == "none")
        #expect(try Self.text(db, "SELECT account_token::text AS v FROM billing_account WHERE id = $1", seed.accountID) != tokenBefore)
        #expect(try Self.text(db, "SELECT coalesce(app_account_token::text, 'none') AS v FROM apple_subscription_identity") == "none")
        let leftovers = try db.query("""
            SELECT (SELECT count(*) FROM billing_transaction WHERE raw_payload::text LIKE '%' || $1 || '%')
                 + (SELECT count(*) FROM inbound_webhook_event WHERE payload::text LIKE '%' || $1 || '%') AS n
            """, [token.uuidString]).first
        #expect(try leftovers?.decode(Int64.self, "n") == 0, "the account token survives nowhere")
        #expect(try Self.text(db, money) == moneyBefore, "every amount, currency and date is kept")
        #expect(try Self.text(db, "SELECT email AS v FROM app_user WHERE id = $1", other.userID).hasSuffix("@example.com"),
                "another user is untouched")
        #expect(try Self.text(db, "SELECT raw_payload::text AS v FROM billing_transaction WHERE subscription_id = $1", other.subscriptionID) == "{}")
        #expect(try Self.text(db, "SELECT action || ' ' || entity_id AS v FROM audit_log WHERE entity = 'app_user'") == "erase \(seed.userID.uuidString.lowercased())")
        // Erasing again keeps the money too; an unknown user changes nothing and writes no audit row.
        _ = try db.query("SELECT erase_app_user($1, 'test') AS n", [seed.userID])
        #expect(try Self.text(db, money) == moneyBefore)
        #expect(try db.query("SELECT erase_app_user($1, 'test') AS n", [UUID()]).first?.decode(Int64.self, "n") == 0)
        #expect(try Self.count(db, "audit_log") == 2)
    }

    @Test func everyAmountHasItsCurrencyAndEveryCurrencyItsShape() throws {
        let (_, db) = try TestDatabase.migrated("test_trust_money_pairs")
        // Catalogue: every *_micros column is tied to a currency by a CHECK, or its table has a NOT NULL currency
        // column; every currency column has a shape CHECK.
        let loose = try db.query("""
            WITH checks AS (SELECT conrelid::regclass::text AS t, pg_get_constraintdef(oid) AS def FROM pg_constraint
                            WHERE contype = 'c' AND connamespace = 'public'::regnamespace),
                 cols AS (SELECT table_name AS t, column_name AS c, is_nullable = 'YES' AS nullable FROM information_schema.columns
                          WHERE table_schema = 'public')
            SELECT m.t || '.' || m.c AS col FROM cols m
            WHERE m.c LIKE '%\\_micros' AND m.nullable
              AND NOT EXISTS (SELECT 1 FROM checks k JOIN cols cur ON cur.t = k.t AND cur.c LIKE '%currency%'
                              WHERE k.t = m.t AND k.def ~ ('\\m' || m.c || '\\M') AND k.def ~ ('\\m' || cur.c || '\\M'))
              AND NOT EXISTS (SELECT 1 FROM cols cur WHERE cur.t = m.t AND cur.c LIKE '%currency%' AND NOT cur.nullable)
            UNION ALL
            SELECT cur.t || '.' || cur.c FROM cols cur
            WHERE cur.c ~ 'currency(_code)?$' AND cur.c NOT LIKE '%rate%'
              AND NOT EXISTS (SELECT 1 FROM checks k WHERE k.t = cur.t AND k.def ~ ('\\m' || cur.c || '\\M') AND k.def LIKE '%[A-Z]{3}%')
            ORDER BY 1
            """).rows.map { try $0.decode(String.self, "col") }
        #expect(loose == [], "money columns without their currency rule: \(loose)")

        let seed = try SeedRows.insert(db)
        func rejected(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws {
            let error = try #require(throws: PostgresError.self, "\(sql)") { try db.execute(sql, parameters) }
            #expect(error.sqlState == "23514", "\(sql): \(error)")
        }
        try rejected("""
            INSERT INTO store_product_mapping (provider, plan_id, product_id, external_key, display_currency_code) VALUES ('APPLE', $1, 'p', 'k1', 'USD')
            """, [seed.planID])
        try rejected("""
            INSERT INTO store_product_mapping (provider, plan_id, product_id, external_key, display_price_micros) VALUES ('APPLE', $1, 'p', 'k2', 1)
            """, [seed.planID])
        try rejected("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, proceeds_micros, raw_payload)
            VALUES ($1, 'APPLE', 'RENEWED', 'k3', now(), 8490000, '{}')
            """, [seed.subscriptionID])
        try rejected("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros, currency_code, raw_payload)
            VALUES ($1, 'APPLE', 'RENEWED', 'k4', now(), 1, 'usd', '{}')
            """, [seed.subscriptionID])
        try db.execute("""
            INSERT INTO report_file (kind, provider, file_name, report_key, content_sha256, period, row_count)
            VALUES ('applePayments', 'apple', 'f', 'f', repeat('0', 64), '2025-01', 1)
            """)
        try rejected("""
            INSERT INTO apple_payments_row (report_file_id, line, region, currency, units_sold, earned_micros, total_owed_micros, proceeds_micros)
            VALUES ((SELECT id FROM report_file), 2, 'Americas', 'USD', 1, 1, 1, 1)
            """)
        try rejected("""
            INSERT INTO apple_payments_row (report_file_id, line, region, currency, units_sold, earned_micros, total_owed_micros)
            VALUES ((SELECT id FROM report_file), 2, 'Americas', 'US$', 1, 1, 1)
            """)
    }

    @Test func atMostOneCurrentGoogleTokenPerSubscription() throws {
        let (_, db) = try TestDatabase.migrated("test_trust_one_current_token")
        let seed = try SeedRows.insert(db)
        let insert = "INSERT INTO google_purchase_token (subscription_id, purchase_token, is_current) VALUES ($1, $2, $3)"
        try db.execute(insert, [seed.subscriptionID, "old-1", false])
        try db.execute(insert, [seed.subscriptionID, "old-2", false])
        try db.execute(insert, [seed.subscriptionID, "current", true])
        let error = try #require(throws: PostgresError.self) { try db.execute(insert, [seed.subscriptionID, "second-current", true]) }
        #expect(error.sqlState == "23505")
        #expect(error.description.contains("google_purchase_token_one_current_idx"), "\(error)")
    }

    /// A database that ran the pipeline's schema before this migration, holding a generated world (plus a second
    /// current token, which the old schema allowed): the migration applies, leaves one current token with an audit
    /// row, and the schema equals an empty database's.
    @Test func onAWorldDatabaseTheMigrationAppliesAndTheSchemaEqualsAFreshOne() throws {
        let (all, old, _) = try Self.worldDatabase(before: "finance_trust", named: "test_trust_from_world")
        let trust = try #require(all.first { $0.name.contains("finance_trust") }).version
        let rowsBefore = try Self.counts(old)
        let subscription = try #require(try old.query("""
            SELECT subscription_id FROM google_purchase_token WHERE is_current ORDER BY purchase_token LIMIT 1
            """).first).decode(UUID.self, "subscription_id")
        try old.execute("""
            INSERT INTO google_purchase_token (subscription_id, purchase_token, is_current, created_at) VALUES ($1, 'older-current', true, '2000-01-01Z')
            """, [subscription])

        try Migrator(database: old, files: all.filter { $0.version <= trust }).migrate()
        let rowsAfterTrust = try Self.counts(old)
        try Migrator(database: old, files: all).migrate()
        let (_, fresh) = try TestDatabase.migrated("test_trust_fresh")
        #expect(try HistoryMigrationTests().schema(old) == HistoryMigrationTests().schema(fresh))
        var rowsAfter = rowsAfterTrust
        rowsAfter["google_purchase_token"] = (rowsAfter["google_purchase_token"] ?? 0) - 1
        #expect(rowsAfter == rowsBefore, "the migration deletes and adds no data row")
        #expect(try Self.text(db: old, """
            SELECT string_agg(purchase_token || ':' || is_current, ',' ORDER BY purchase_token = 'older-current') AS v
            FROM google_purchase_token WHERE subscription_id = $1 AND (is_current OR purchase_token = 'older-current')
            """, subscription).hasSuffix("older-current:false"), "the older of two current tokens is demoted")
        #expect(try Self.count(old, "audit_log") == 1)
    }

    // MARK: - Helpers

    static func charge(_ db: PostgresConnection, _ seed: SeedRows, key: String, amount: Int64, payload: String = "{}",
                       event: UUID? = nil) throws {
        try db.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
              currency_code, raw_payload, inbound_event_id)
            VALUES ($1, 'APPLE', 'PURCHASED', $2, '2026-01-01Z', $3, 'USD', $4::jsonb, $5)
            """, [seed.subscriptionID, key, amount, payload, event])
    }

    static func count(_ db: PostgresConnection, _ table: String) throws -> Int64 {
        try db.query("SELECT count(*)::int8 AS n FROM \(table)").first?.decode(Int64.self, "n") ?? -1
    }

    static func text(_ db: PostgresConnection, _ sql: String, _ parameter: UUID? = nil) throws -> String {
        try text(db: db, sql, parameter)
    }

    static func text(db: PostgresConnection, _ sql: String, _ parameter: UUID?) throws -> String {
        let rows = try parameter.map { try db.query(sql, [$0]) } ?? db.query(sql)
        return try rows.first?.decode(String.self, "v") ?? "<no row>"
    }

    /// Rows per public table.
    /// A database migrated up to (not including) the migration whose name contains `migration`, holding a generated
    /// world (seed 12, 300 subscriptions, 4 months): every bundled migration, the database and the world.
    static func worldDatabase(before migration: String, named name: String) throws -> ([MigrationFiles.File], PostgresConnection, GeneratedWorld) {
        let all = try Migrator.shippedFiles()
        let version = try #require(all.first { $0.name.contains(migration) }).version
        let database = try PostgresConnection(configuration: try TestDatabase.fresh(name))
        try Migrator(database: database, files: all.filter { $0.version < version }).migrate()
        let world = try World.generate(WorldOptions(seed: 12, subscriptions: 300, months: 4))
        try WorldWriter.load(world, into: database)
        return (all, database, world)
    }

    static func counts(_ db: PostgresConnection) throws -> [String: Int64] {
        let tables = try db.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migration'")
            .rows.map { try $0.decode(String.self, "tablename") }
        var counts: [String: Int64] = [:]
        for table in tables where table != "audit_log" { counts[table] = try count(db, table) }
        return counts
    }
}

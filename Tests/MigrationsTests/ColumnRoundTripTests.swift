import Foundation
import Postgres
import TestSupport
import Testing

/// Each column of the core tables stores and returns exactly what was written.
@Suite struct ColumnRoundTripTests {
    @Test func subscriptionAndTransactionColumnsRoundTrip() throws {
        let (_, db) = try TestDatabase.migrated("test_column_round_trip")
        let seed = try SeedRows.insert(db)
        let start = Date(timeIntervalSince1970: 1_767_225_600.123456)
        let end = Date(timeIntervalSince1970: 1_769_904_000.5)
        try db.execute("""
            UPDATE subscription SET status = 'IN_GRACE_PERIOD', acknowledgement_status = 'PENDING', is_test_purchase = true,
              is_sandbox = true, auto_renew = false, current_currency_code = 'JPY', current_recurring_price_micros = $2,
              current_period_start_at = $3, current_period_end_at = $4, trial_ends_at = $3, cancel_at = $4, canceled_at = $3,
              last_verified_at = $4, last_store_state_at = $3
            WHERE id = $1
            """, [seed.subscriptionID, Int64(1_200_000_000), start, end])
        let row = try #require(try db.query("SELECT * FROM subscription WHERE id = $1", [seed.subscriptionID]).first)
        #expect(try row.decode(String.self, "status") == "IN_GRACE_PERIOD")
        #expect(try row.decode(String.self, "acknowledgement_status") == "PENDING")
        #expect(try row.decode(Bool.self, "is_test_purchase"))
        #expect(try row.decode(Bool.self, "is_sandbox"))
        #expect(try !row.decode(Bool.self, "auto_renew"))
        #expect(try row.decode(String.self, "current_currency_code") == "JPY")
        #expect(try row.decode(Int64.self, "current_recurring_price_micros") == 1_200_000_000)
        for column in ["current_period_start_at", "trial_ends_at", "canceled_at", "last_store_state_at"] {
            #expect(PostgresTimestamp.format(try row.decode(Date.self, column)) == PostgresTimestamp.format(start))
        }
        for column in ["current_period_end_at", "cancel_at", "last_verified_at"] {
            #expect(PostgresTimestamp.format(try row.decode(Date.self, column)) == PostgresTimestamp.format(end))
        }
        #expect(try row.decode(UUID.self, "billing_account_id") == seed.accountID)

        let payload = #"{"notificationType": "DID_RENEW", "price": 4990, "nested": {"list": [1, "two", null]}}"#
        try db.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, expires_at,
              order_id, amount_micros, currency_code, country_code, is_test, proceeds_micros, proceeds_currency_code, reason, raw_payload,
              refund_kind)
            VALUES ($1, 'APPLE', 'REFUNDED', 'APPLE:1:2', $2, $3, 'MTX123', -4990000, 'USD', 'USA', true, -4240000, 'USD', 'REFUND_FULL', $4::jsonb,
                    'REFUND')
            """, [seed.subscriptionID, start, end, PostgresJSON(text: payload)])
        let transaction = try #require(try db.query("SELECT * FROM billing_transaction WHERE transaction_key = 'APPLE:1:2'").first)
        #expect(try transaction.decode(String.self, "event_type") == "REFUNDED")
        #expect(try transaction.decode(Int64.self, "amount_micros") == -4_990_000)
        #expect(try transaction.decode(Int64.self, "proceeds_micros") == -4_240_000)
        #expect(try transaction.decode(String.self, "country_code") == "USA")
        #expect(try transaction.decode(String.self, "reason") == "REFUND_FULL")
        let stored = try JSONSerialization.jsonObject(with: Data(try transaction.decode(PostgresJSONText.self, "raw_payload").text.utf8))
        let original = try JSONSerialization.jsonObject(with: Data(payload.utf8))
        #expect((stored as? NSDictionary) == (original as? NSDictionary))
    }

    @Test func moneyAndCodeChecksRejectNonsense() throws {
        let (_, db) = try TestDatabase.migrated("test_column_checks")
        let seed = try SeedRows.insert(db)
        let lowercase = try #require(throws: PostgresError.self) {
            try db.execute("UPDATE subscription SET current_currency_code = 'usd', current_recurring_price_micros = 1 WHERE id = $1", [seed.subscriptionID])
        }
        #expect(lowercase.sqlState == "23514")
        let halfPrice = try #require(throws: PostgresError.self) {
            try db.execute("UPDATE subscription SET current_currency_code = 'USD' WHERE id = $1", [seed.subscriptionID])
        }
        #expect(halfPrice.sqlState == "23514", "a price needs both its amount and its currency")
        let period = try #require(throws: PostgresError.self) {
            try db.execute("INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('X', 'x', 'MONTHLY', 'monthly')")
        }
        #expect(period.sqlState == "23514")
    }
}

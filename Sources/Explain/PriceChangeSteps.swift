import Foundation
import Postgres

/// `subscription_price_change` rows through their `subscription_price_change_transition` rows: one entry per state
/// (PENDING, ACCEPTED, APPLIED, CANCELED) at the store's instant, with the old and new price.
enum PriceChangeSteps {
    static func read(_ id: String, asOf: Date, database: PostgresConnection) throws -> [TimelineEntry] {
        try database.query("""
            SELECT t.state::text AS state, t.at, t.recorded_at, c.mode::text AS mode, c.currency_code, c.old_amount_micros,
                   c.new_amount_micros, c.expected_charge_at, c.product_id, c.region_code
            FROM subscription_price_change_transition t JOIN subscription_price_change c ON c.id = t.price_change_id
            WHERE c.subscription_id = $1::uuid AND t.recorded_at <= $2
            ORDER BY t.at, t.recorded_at, t.id
            """, [id, asOf]).rows.map { row in
            let currency = try row.decode(String.self, "currency_code")
            var details: [(String, String)] = [("mode", try row.decode(String.self, "mode"))]
            details.append(("old_price", ExplainFormat.money(try row.decodeIfPresent(Int64.self, "old_amount_micros"), currency)))
            details.append(("new_price", ExplainFormat.money(try row.decode(Int64.self, "new_amount_micros"), currency)))
            if let expected = try row.decodeIfPresent(Date.self, "expected_charge_at") {
                details.append(("expected_charge_at", ExplainFormat.instant(expected)))
            }
            if let product = try row.decodeIfPresent(String.self, "product_id") { details.append(("product", product)) }
            if let region = try row.decodeIfPresent(String.self, "region_code") { details.append(("region", region)) }
            return TimelineEntry(at: try row.decode(Date.self, "at"), recordedAt: try row.decode(Date.self, "recorded_at"),
                                 source: "subscription_price_change", event: "PRICE_CHANGE_" + (try row.decode(String.self, "state")),
                                 amountMicros: try row.decode(Int64.self, "new_amount_micros"), currency: currency, details: details)
        }
    }
}

import Foundation
import Postgres

/// `billing_transaction` rows as timeline entries: event type, amount, effective and recorded instants, what the
/// charge bought, and for refunds their kind, the store's reason codes and the charge refunded.
enum TransactionSteps {
    static func read(_ id: String, asOf: Date, mask: IdentifierMask, database: PostgresConnection) throws -> [TimelineEntry] {
        try database.query("""
            SELECT event_type::text AS event, effective_at, recorded_at, amount_micros, currency_code, transaction_key, order_id,
                   product_id, billing_period, period_start_at, period_end_at, expires_at, refund_kind::text AS refund_kind, reason,
                   revocation_reason, revocation_type, voided_source, voided_reason, refunded_transaction_key, is_derived,
                   country_code, proceeds_micros, proceeds_currency_code, is_test
            FROM billing_transaction WHERE subscription_id = $1::uuid AND recorded_at <= $2
            ORDER BY effective_at, recorded_at, transaction_key
            """, [id, asOf]).rows.map { row in
            var details: [(String, String)] = [("key", mask.scrub(try row.decode(String.self, "transaction_key")))]
            func add(_ name: String, _ value: String?) { if let value, !value.isEmpty { details.append((name, value)) } }
            add("order", try row.decodeIfPresent(String.self, "order_id").map(mask.show))
            add("product", try row.decodeIfPresent(String.self, "product_id"))
            add("billing_period", try row.decodeIfPresent(String.self, "billing_period"))
            if let start = try row.decodeIfPresent(Date.self, "period_start_at") {
                add("paid_period", ExplainFormat.instant(start) + " → " + ExplainFormat.instant(try row.decodeIfPresent(Date.self, "period_end_at")))
            }
            add("expires_at", try row.decodeIfPresent(Date.self, "expires_at").map { ExplainFormat.instant($0) })
            add("refund_kind", try row.decodeIfPresent(String.self, "refund_kind"))
            add("refunds", try row.decodeIfPresent(String.self, "refunded_transaction_key").map(mask.scrub))
            add("reason", try row.decodeIfPresent(String.self, "reason").map(mask.scrub))
            add("revocation_reason", try row.decodeIfPresent(Int64.self, "revocation_reason").map { String($0) })
            add("revocation_type", try row.decodeIfPresent(String.self, "revocation_type"))
            add("voided_source", try row.decodeIfPresent(Int64.self, "voided_source").map { String($0) })
            add("voided_reason", try row.decodeIfPresent(Int64.self, "voided_reason").map { String($0) })
            add("country", try row.decodeIfPresent(String.self, "country_code"))
            add("proceeds", ExplainFormat.money(try row.decodeIfPresent(Int64.self, "proceeds_micros"),
                                                try row.decodeIfPresent(String.self, "proceeds_currency_code")))
            if try row.decode(Bool.self, "is_derived") { add("derived", "yes") }
            if try row.decode(Bool.self, "is_test") { add("test", "yes") }
            return TimelineEntry(at: try row.decode(Date.self, "effective_at"), recordedAt: try row.decode(Date.self, "recorded_at"),
                                 source: "billing_transaction", event: try row.decode(String.self, "event"),
                                 amountMicros: try row.decodeIfPresent(Int64.self, "amount_micros"),
                                 currency: try row.decodeIfPresent(String.self, "currency_code"), details: details)
        }
    }
}

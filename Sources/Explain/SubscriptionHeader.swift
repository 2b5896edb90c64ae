import Foundation
import Postgres

/// The subscription as it stands now (not as of `--as-of`): status, plan, price, period, its own identifiers
/// (masked unless `--raw-ids`) and the entitlement row it grants.
public struct SubscriptionHeader: Sendable {
    /// Ordered name/value pairs, identifiers already masked.
    public let fields: [(String, String)]

    /// Reads the subscription `id` and its identities.
    static func read(_ id: String, mask: IdentifierMask, database: PostgresConnection) throws -> SubscriptionHeader {
        guard let row = try database.query("""
            SELECT s.provider::text AS provider, s.status::text AS status, s.acknowledgement_status::text AS ack,
                   p.code AS plan, s.product_id, s.current_recurring_price_micros AS price, s.current_currency_code AS currency,
                   s.current_period_start_at AS period_start, s.current_period_end_at AS period_end, s.trial_ends_at,
                   s.auto_renew, s.cancel_at, s.last_verified_at, s.is_test_purchase, s.is_sandbox,
                   a.original_transaction_id, a.latest_transaction_id
            FROM subscription s JOIN plan p ON p.id = s.plan_id
            LEFT JOIN apple_subscription_identity a ON a.subscription_id = s.id
            WHERE s.id = $1::uuid
            """, [id]).first else { return SubscriptionHeader(fields: [("subscription", mask.show(id))]) }
        var fields: [(String, String)] = [
            ("subscription", mask.show(id)),
            ("provider", try row.decode(String.self, "provider")),
            ("status", try row.decode(String.self, "status")),
            ("acknowledgement", try row.decode(String.self, "ack")),
            ("plan", try row.decode(String.self, "plan")),
            ("product", try row.decodeIfPresent(String.self, "product_id") ?? ""),
            ("price", ExplainFormat.money(try row.decodeIfPresent(Int64.self, "price"), try row.decodeIfPresent(String.self, "currency"))),
            ("period", ExplainFormat.instant(try row.decodeIfPresent(Date.self, "period_start")) + " → "
                + ExplainFormat.instant(try row.decodeIfPresent(Date.self, "period_end"))),
            ("trial_ends_at", ExplainFormat.instant(try row.decodeIfPresent(Date.self, "trial_ends_at"))),
            ("auto_renew", try row.decode(Bool.self, "auto_renew") ? "yes" : "no"),
            ("cancel_at", ExplainFormat.instant(try row.decodeIfPresent(Date.self, "cancel_at"))),
            ("last_verified_at", ExplainFormat.instant(try row.decodeIfPresent(Date.self, "last_verified_at"))),
            ("test_purchase", try row.decode(Bool.self, "is_test_purchase") ? "yes" : "no"),
            ("sandbox", try row.decode(Bool.self, "is_sandbox") ? "yes" : "no"),
        ]
        if let original = try row.decodeIfPresent(String.self, "original_transaction_id") {
            fields.append(("original_transaction_id", mask.show(original)))
        }
        if let latest = try row.decodeIfPresent(String.self, "latest_transaction_id") {
            fields.append(("latest_transaction_id", mask.show(latest)))
        }
        for token in try database.query("""
            SELECT purchase_token, linked_purchase_token, is_current FROM google_purchase_token
            WHERE subscription_id = $1::uuid ORDER BY created_at, purchase_token
            """, [id]).rows {
            var text = mask.show(try token.decode(String.self, "purchase_token"))
            if try token.decode(Bool.self, "is_current") { text += " (current)" }
            if let linked = try token.decodeIfPresent(String.self, "linked_purchase_token") {
                text += " linked from " + mask.show(linked)
            }
            fields.append(("purchase_token", text))
        }
        for entitlement in try database.query("""
            SELECT p.code AS plan, e.is_active, e.valid_from, e.valid_until FROM entitlement e JOIN plan p ON p.id = e.plan_id
            WHERE e.source_subscription_id = $1::uuid ORDER BY p.code
            """, [id]).rows {
            fields.append(("entitlement", "\(try entitlement.decode(String.self, "plan")) "
                + (try entitlement.decode(Bool.self, "is_active") ? "active " : "inactive ")
                + ExplainFormat.instant(try entitlement.decodeIfPresent(Date.self, "valid_from")) + " → "
                + ExplainFormat.instant(try entitlement.decodeIfPresent(Date.self, "valid_until"))))
        }
        return SubscriptionHeader(fields: fields)
    }
}

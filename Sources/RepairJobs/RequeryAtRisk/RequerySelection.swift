import Foundation
import Postgres

/// Set-based selection of at-risk subscriptions in the backfill priority (one SQL statement).
///
/// Every subscription with a store identity, not verified within the freshness window and not a Google token more
/// than 60 days past expiry (or one an open reconciliation item points at, whatever its age), is tagged with each category it falls in; it keeps its highest. Each category then
/// keeps at most `ceil(share × limit)` (oldest verification first), and the whole selection at most `limit`.
public enum RequerySelection {
    /// Selects the subscriptions of one run, in priority order.
    public static func select(_ database: PostgresConnection, options: RequeryOptions) throws -> [SelectedSubscription] {
        let enabled = options.categories.map { String($0.priority) }.sorted()
        let caps = RequeryCategory.allCases.map { String(options.cap(of: $0)) }
        let result = try database.query(sql, [
            options.asOf, options.windowDays, options.freshHours, options.refundDays,
            "{" + enabled.joined(separator: ",") + "}", "{" + caps.joined(separator: ",") + "}", options.limit,
        ])
        return try result.rows.map { row in
            let priority = try row.decode(Int.self, "priority")
            guard let category = RequeryCategory.of(priority: priority) else {
                throw RequeryError.selection("unknown priority \(priority) for subscription \(try row.decode(String.self, "id"))")
            }
            return SelectedSubscription(subscriptionId: try row.decode(String.self, "id"), category: category,
                                        isTest: try row.decode(Bool.self, "is_test_purchase"))
        }
    }

    /// $1 as-of, $2 window days, $3 fresh hours, $4 refund days, $5 enabled priorities, $6 caps by priority, $7 limit.
    static let sql = """
        WITH reconciliation_targets AS (\(ReconciliationTargets.subscriptionsSQL)),
        eligible AS (
            SELECT s.id, s.provider, s.status, s.acknowledgement_status, s.current_period_end_at, s.last_verified_at,
                   s.is_test_purchase, a.original_transaction_id, g.purchase_token,
                   ((s.last_verified_at IS NULL OR s.last_verified_at <= $1::timestamptz - make_interval(hours => $3::int))
                    AND NOT (s.provider = 'GOOGLE' AND s.current_period_end_at < $1::timestamptz - interval '60 days')) AS is_due
            FROM subscription s
            LEFT JOIN apple_subscription_identity a ON s.provider = 'APPLE' AND a.subscription_id = s.id
            LEFT JOIN LATERAL (
                SELECT t.purchase_token FROM google_purchase_token t
                WHERE s.provider = 'GOOGLE' AND t.subscription_id = s.id AND t.is_current
                ORDER BY t.created_at DESC LIMIT 1) g ON true
            WHERE (a.original_transaction_id IS NOT NULL OR g.purchase_token IS NOT NULL)
              AND (((s.last_verified_at IS NULL OR s.last_verified_at <= $1::timestamptz - make_interval(hours => $3::int))
                    AND NOT (s.provider = 'GOOGLE' AND s.current_period_end_at < $1::timestamptz - interval '60 days'))
                   OR s.id IN (SELECT subscription_id FROM reconciliation_targets))
        ),
        -- The other categories keep the freshness window and Google's 60 days.
        due AS (SELECT * FROM eligible WHERE is_due),
        -- Each event table is read once and joined by key (a correlated jsonb lookup per subscription grows with
        -- the square of the world): recent Apple REFUND/REVOKE notifications by the received_at index, and failed
        -- events (few) with the subscription key they name (a Google business key is token:type:time).
        recent_apple_refunds AS (
            SELECT DISTINCT w.payload -> 'transactionInfo' ->> 'originalTransactionId' AS original_transaction_id
            FROM inbound_webhook_event w
            WHERE w.provider = 'APPLE' AND w.received_at >= $1::timestamptz - make_interval(days => $4::int)
              AND w.payload -> 'notification' ->> 'notificationType' IN ('REFUND', 'REVOKE')
        ),
        failed_events AS (
            SELECT DISTINCT w.provider::text AS provider, w.payload -> 'transactionInfo' ->> 'originalTransactionId' AS original_transaction_id,
                   split_part(w.provider_business_key, ':', 1) AS purchase_token
            FROM inbound_webhook_event w WHERE w.processing_error IS NOT NULL
        ),
        tagged AS (
            SELECT r.subscription_id AS id, 1 AS priority FROM reconciliation_targets r
            JOIN eligible e ON e.id = r.subscription_id
            UNION ALL SELECT e.id, 2 AS priority FROM due e
            WHERE e.current_period_end_at <= $1::timestamptz + make_interval(days => $2::int)
              AND EXISTS (SELECT 1 FROM entitlement en WHERE en.source_subscription_id = e.id AND en.is_active)
              AND NOT EXISTS (SELECT 1 FROM billing_transaction b WHERE b.subscription_id = e.id
                              AND b.event_type IN ('RENEWED', 'RECOVERED', 'RESTARTED') AND b.expires_at > e.current_period_end_at)
            UNION ALL SELECT e.id, 3 FROM due e WHERE e.status = 'IN_GRACE_PERIOD'
            UNION ALL SELECT e.id, 4 FROM due e WHERE e.status = 'ON_HOLD'
            UNION ALL SELECT e.id, 5 FROM due e WHERE e.status = 'PENDING'
            UNION ALL SELECT e.id, 6 FROM due e WHERE e.acknowledgement_status = 'PENDING'
            UNION ALL SELECT e.id, 7 FROM due e
            WHERE EXISTS (SELECT 1 FROM subscription_price_change p WHERE p.subscription_id = e.id AND p.state = 'PENDING')
            UNION ALL SELECT e.id, 8 FROM due e
            WHERE EXISTS (SELECT 1 FROM billing_transaction b WHERE b.subscription_id = e.id
                          AND b.event_type IN ('REFUNDED', 'REVOKED')
                          AND b.effective_at >= $1::timestamptz - make_interval(days => $4::int))
            UNION ALL SELECT e.id, 8 FROM due e JOIN recent_apple_refunds r ON r.original_transaction_id = e.original_transaction_id
            UNION ALL SELECT e.id, 9 FROM due e JOIN failed_events f
              ON f.provider = 'APPLE' AND f.original_transaction_id = e.original_transaction_id
            UNION ALL SELECT e.id, 9 FROM due e JOIN failed_events f
              ON f.provider = 'GOOGLE' AND f.purchase_token = e.purchase_token
            UNION ALL SELECT e.id, 10 FROM due e
        ),
        best AS (
            SELECT id, min(priority) AS priority FROM tagged
            WHERE priority = ANY ($5::int[])
            GROUP BY id
        ),
        ranked AS (
            SELECT b.id, b.priority, e.is_test_purchase,
                   row_number() OVER (PARTITION BY b.priority
                                      ORDER BY e.last_verified_at NULLS FIRST, e.current_period_end_at NULLS LAST, b.id) AS rank
            FROM best b JOIN eligible e ON e.id = b.id
        )
        SELECT id::text AS id, priority, is_test_purchase FROM ranked
        WHERE rank <= ($6::int[])[priority]
        ORDER BY priority, rank
        LIMIT $7
        """
}

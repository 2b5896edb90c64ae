import Foundation
import Postgres

/// The reconciliation items a re-query can repair, and the subscriptions each one points at (docs/RECONCILIATION.md,
/// "Closing the loop"). Read through SQL from `reconciliation_run` / `reconciliation_item`; nothing here changes them.
///
/// Items: the current run of every period that is not closed, categories `missing_in_database`, `refund_not_reflected`
/// and `amount_mismatch` with a database side. Subscriptions:
/// - Google (one order per item): every subscription holding a row of the same signup order (`GPA.…` before `..N`),
///   so a renewal whose row is missing is found through its siblings.
/// - Apple (a cell per item: product, country, price, sale or return — Apple's reports carry no transaction IDs): for a
///   sale, the subscriptions of the product whose paid periods leave a hole that meets the report period (a charge row
///   missing between two others, before the first one when no PURCHASED row exists, or after the last one up to the
///   subscription's current period end); for a return, the subscriptions of the product holding a stored REFUND or
///   REVOKE notification without a refund or revocation row.
public enum ReconciliationTargets {
    /// The open items a re-query can repair (current runs of periods not closed; the three categories).
    static let openItems = """
        SELECT r.id AS run_id, i.line, r.provider, r.period, r.starts_at, r.ends_at, i.category, i.grain_key, i.side, i.product_id
        FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
        WHERE r.superseded_by IS NULL AND NOT i.prior_period_adjustment
          AND (i.category IN ('missing_in_database', 'refund_not_reflected') OR (i.category = 'amount_mismatch' AND i.database_units > 0))
          AND NOT EXISTS (SELECT 1 FROM period_lock l JOIN period_close c ON c.id = l.close_id
                          WHERE c.reopened_at IS NULL AND l.provider::text = upper(r.provider) AND l.report_period = r.period)
        """

    /// The items that can be repaired, one row per (item, subscription); `subscriptionFilter` limits the subscriptions.
    static func pairsSQL(subscriptionFilter: String?) -> String {
        let apple = subscriptionFilter.map { "AND s.id = \($0)" } ?? ""
        let google = subscriptionFilter.map { "AND b.subscription_id = \($0)" } ?? ""
        return """
            WITH open_items AS (\(openItems)),
            google_pairs AS (
                SELECT DISTINCT o.run_id, o.line, b.subscription_id
                FROM open_items o JOIN billing_transaction b
                  ON b.provider = 'GOOGLE' AND b.order_id IS NOT NULL
                 AND split_part(b.order_id, '..', 1) = split_part(o.grain_key, '..', 1)
                WHERE o.provider = 'google' \(google)
            ),
            apple_charges AS (
                SELECT s.id AS subscription_id, s.product_id, s.current_period_end_at, b.effective_at, b.expires_at,
                       lead(b.effective_at) OVER (PARTITION BY s.id ORDER BY b.effective_at, b.transaction_key) AS next_at,
                       row_number() OVER (PARTITION BY s.id ORDER BY b.effective_at, b.transaction_key) AS position,
                       bool_or(b.event_type = 'PURCHASED') OVER (PARTITION BY s.id) AS has_purchase
                FROM subscription s JOIN billing_transaction b ON b.subscription_id = s.id
                WHERE s.provider = 'APPLE' AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                  AND b.amount_micros >= 0 \(apple)
                  AND s.product_id IN (SELECT product_id FROM open_items WHERE provider = 'apple' AND side = 'sale')
            ),
            apple_holes AS (
                SELECT subscription_id, product_id, expires_at AS hole_from,
                       COALESCE(next_at, GREATEST(current_period_end_at, expires_at)) AS hole_to
                FROM apple_charges
                WHERE COALESCE(next_at, current_period_end_at) > expires_at + interval '1 hour'
                UNION ALL
                SELECT subscription_id, product_id, '-infinity'::timestamptz, effective_at
                FROM apple_charges WHERE position = 1 AND NOT has_purchase
                UNION ALL
                SELECT s.id, s.product_id, '-infinity'::timestamptz, 'infinity'::timestamptz
                FROM subscription s
                WHERE s.provider = 'APPLE' \(apple)
                  AND s.product_id IN (SELECT product_id FROM open_items WHERE provider = 'apple' AND side = 'sale')
                  AND NOT EXISTS (SELECT 1 FROM billing_transaction b WHERE b.subscription_id = s.id AND b.amount_micros >= 0)
            ),
            apple_refunds AS (
                SELECT DISTINCT s.id AS subscription_id, s.product_id
                FROM inbound_webhook_event w
                JOIN apple_subscription_identity a ON a.original_transaction_id = w.payload -> 'transactionInfo' ->> 'originalTransactionId'
                JOIN subscription s ON s.id = a.subscription_id
                WHERE w.provider = 'APPLE' AND w.payload -> 'notification' ->> 'notificationType' IN ('REFUND', 'REVOKE') \(apple)
                  AND NOT EXISTS (SELECT 1 FROM billing_transaction b WHERE b.subscription_id = s.id
                                  AND b.event_type IN ('REFUNDED', 'REVOKED'))
            ),
            apple_pairs AS (
                SELECT DISTINCT o.run_id, o.line, h.subscription_id
                FROM open_items o JOIN apple_holes h ON h.product_id = o.product_id
                WHERE o.provider = 'apple' AND o.side = 'sale' AND h.hole_from < o.ends_at AND h.hole_to > o.starts_at
                UNION
                SELECT o.run_id, o.line, f.subscription_id
                FROM open_items o JOIN apple_refunds f ON f.product_id = o.product_id
                WHERE o.provider = 'apple' AND o.side = 'return'
            )
            SELECT run_id, line, subscription_id FROM google_pairs
            UNION ALL SELECT run_id, line, subscription_id FROM apple_pairs
            """
    }

    /// The subscriptions the open items point at (a CTE body for the selection: one column, `subscription_id`).
    static let subscriptionsSQL = "SELECT DISTINCT subscription_id FROM (\(pairsSQL(subscriptionFilter: nil))) p"

    /// The open items subscription `subscriptionId` is a target of, with their grain key (a Google order ID).
    static func items(of subscriptionId: String, database: PostgresConnection) throws -> [ReconciliationItemRef] {
        try database.query("""
            SELECT DISTINCT p.run_id, p.line, i.grain_key FROM (\(pairsSQL(subscriptionFilter: "$1::uuid"))) p
            JOIN reconciliation_item i ON i.run_id = p.run_id AND i.line = p.line ORDER BY 1, 2
            """, [subscriptionId]).rows.map {
            ReconciliationItemRef(runId: try $0.decode(Int64.self, "run_id"), line: try $0.decode(Int.self, "line"),
                                  grainKey: try $0.decode(String.self, "grain_key"))
        }
    }

    /// Records what the repair of `subscriptionId` did for `item`; of several subscriptions' words on one item in one job
    /// run the strongest stays (repaired, failed, store_window, not_found).
    static func record(_ item: ReconciliationItemRef, _ outcome: ReconciliationRepairOutcome, subscriptionId: String,
                       jobRunID: Int64?) -> PostgresStatement {
        PostgresStatement("""
            INSERT INTO reconciliation_repair AS r (run_id, line, outcome, detail, subscription_id, job_run_id)
            VALUES ($1, $2, $3, $4, $5::uuid, $6)
            ON CONFLICT (run_id, line) DO UPDATE
              SET outcome = EXCLUDED.outcome, detail = EXCLUDED.detail, subscription_id = EXCLUDED.subscription_id,
                  job_run_id = EXCLUDED.job_run_id, recorded_at = clock_timestamp()
              WHERE r.job_run_id IS DISTINCT FROM EXCLUDED.job_run_id
                 OR array_position(ARRAY['not_found', 'store_window', 'failed', 'repaired'], EXCLUDED.outcome)
                    > array_position(ARRAY['not_found', 'store_window', 'failed', 'repaired'], r.outcome)
            """, [item.runId, item.line, outcome.name, String(outcome.detail.prefix(1000)), subscriptionId, jobRunID])
    }

    /// Records `not_found` for every open item no subscription of ours matches (the latest job run's word on the item).
    static func recordUnmatched(database: PostgresConnection, jobRunID: Int64?) throws -> Int {
        try database.execute("""
            WITH pairs AS (\(pairsSQL(subscriptionFilter: nil))), open_items AS (\(openItems))
            INSERT INTO reconciliation_repair (run_id, line, outcome, detail, job_run_id)
            SELECT o.run_id, o.line, 'not_found', 'no subscription in the database matches the item', $1
            FROM open_items o WHERE NOT EXISTS (SELECT 1 FROM pairs p WHERE p.run_id = o.run_id AND p.line = o.line)
            ON CONFLICT (run_id, line) DO UPDATE
              SET outcome = EXCLUDED.outcome, detail = EXCLUDED.detail, job_run_id = EXCLUDED.job_run_id,
                  recorded_at = clock_timestamp()
            """, [jobRunID])
    }
}

/// One reconciliation item: its run and line, and its grain key (Google: the order ID).
struct ReconciliationItemRef: Sendable, Hashable {
    let runId: Int64
    let line: Int
    let grainKey: String
}

import Foundation
import Postgres

/// Google purchases still unacknowledged in the database, by how close they are to Google's 3-day deadline.
///
/// The deadline runs from the purchase of the current purchase token: its first history row (the transaction key
/// `GOOGLE:{purchaseToken}:…`), else the token row's creation, else the subscription's. `overdue`: the deadline has
/// passed (Google refunds and revokes such purchases); `within_24h`: it passes in the next 24 hours; `later`: it is
/// further away. Only paid purchases are counted (a paid period is known: `current_period_end_at` is set): a purchase
/// still pending payment, or one abandoned before it was paid, needs no acknowledgement. The family's sum is every
/// paid Google purchase the database holds as unacknowledged, so a purchase the store acknowledged but the database
/// did not record counts too (`overdue` once its deadline passes).
enum AcknowledgementCollector {
    static let deadlines = ["overdue", "within_24h", "later"]

    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let samples = try GroupedCount.samples(input.database, """
            WITH pending AS (
                SELECT COALESCE(
                         (SELECT min(bt.effective_at) FROM billing_transaction bt
                          WHERE bt.subscription_id = s.id AND tok.purchase_token IS NOT NULL
                            AND left(bt.transaction_key, length(tok.purchase_token) + 8) = 'GOOGLE:' || tok.purchase_token || ':'),
                         tok.created_at, s.created_at) + interval '3 days' AS deadline
                FROM subscription s
                LEFT JOIN LATERAL (SELECT t.purchase_token, t.created_at FROM google_purchase_token t
                                   WHERE t.subscription_id = s.id AND t.is_current
                                   ORDER BY t.created_at DESC LIMIT 1) tok ON true
                WHERE s.provider = 'GOOGLE' AND s.acknowledgement_status = 'PENDING' AND s.current_period_end_at IS NOT NULL
            )
            SELECT CASE WHEN deadline <= $1 THEN 'overdue'
                        WHEN deadline <= $1::timestamptz + interval '24 hours' THEN 'within_24h' ELSE 'later' END AS deadline,
                   count(*)::float8 AS n
            FROM pending
            GROUP BY 1
            """, [input.asOf], labels: ["deadline"], expected: GroupedCount.product(deadlines))
        return [MetricFamily(name: "iap_google_unacknowledged_subscriptions",
                             help: "Paid Google subscriptions with acknowledgement PENDING, by how far their 3-day acknowledgement deadline is: passed (overdue), within 24 hours, or later.",
                             samples: samples)]
    }
}

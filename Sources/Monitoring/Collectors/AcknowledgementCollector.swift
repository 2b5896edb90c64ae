import Foundation
import Postgres

/// Google purchases still unacknowledged in the database, by how close they are to Google's 3-day deadline.
///
/// The deadline runs from the purchase of the current purchase token: its first history row (the transaction key
/// `GOOGLE:{purchaseToken}:…`), else the token row's creation, else the subscription's. `overdue`: the deadline has
/// passed (Google refunds and revokes such purchases); `within_24h`: it passes in the next 24 hours.
enum AcknowledgementCollector {
    static let deadlines = ["overdue", "within_24h"]

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
                WHERE s.provider = 'GOOGLE' AND s.acknowledgement_status = 'PENDING'
            )
            SELECT CASE WHEN deadline <= $1 THEN 'overdue' ELSE 'within_24h' END AS deadline, count(*)::float8 AS n
            FROM pending WHERE deadline <= $1::timestamptz + interval '24 hours'
            GROUP BY 1
            """, [input.asOf], labels: ["deadline"], expected: GroupedCount.product(deadlines))
        return [MetricFamily(name: "iap_google_unacknowledged_subscriptions",
                             help: "Google subscriptions with acknowledgement PENDING whose 3-day acknowledgement deadline has passed (overdue) or passes within 24 hours.",
                             samples: samples)]
    }
}

import Foundation
import Postgres

/// PENDING subscriptions (the purchase not yet completed in the store) older than the configured number of hours.
enum PendingCollector {
    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let samples = try GroupedCount.samples(input.database, """
            SELECT lower(provider::text) AS provider, count(*)::float8 AS n
            FROM subscription
            WHERE status = 'PENDING' AND created_at <= $1::timestamptz - make_interval(hours => $2::int)
            GROUP BY 1
            """, [input.asOf, input.pendingHours], labels: ["provider"], expected: GroupedCount.product(GroupedCount.providers))
        return [MetricFamily(name: "iap_pending_stale_subscriptions",
                             help: "PENDING subscriptions created more than \(input.pendingHours) hours before the as-of instant (--pending-hours).",
                             samples: samples)]
    }
}

import Foundation
import Postgres

/// Subscriptions whose database state disagrees with the store's last verified answer, by provider and drift kind.
///
/// A re-query compares the database with the store's answer and records each difference as a `drift_event` row.
/// `iap_drift_subscriptions` counts the subscriptions with an unrepaired difference that no later verification has
/// superseded (`repaired = false` and `detected_at >= subscription.last_verified_at`): the database still disagrees
/// with the newest answer. `iap_drift_repaired_subscriptions` counts the subscriptions whose differences a re-query
/// found and repaired in the 24 hours before the as-of instant: how much the webhook path missed since yesterday.
enum DriftCollector {
    /// The `drift_event.kind` values.
    static let kinds = ["status", "entitlement", "expiry", "price", "acknowledgement", "missing_transaction", "other"]

    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let expected = GroupedCount.product(GroupedCount.providers, kinds)
        let open = try GroupedCount.samples(input.database, """
            SELECT lower(s.provider::text) AS provider, d.kind, count(DISTINCT d.subscription_id)::float8 AS n
            FROM drift_event d JOIN subscription s ON s.id = d.subscription_id
            WHERE NOT d.repaired AND d.detected_at <= $1
              AND (s.last_verified_at IS NULL OR d.detected_at >= s.last_verified_at)
            GROUP BY 1, 2
            """, [input.asOf], labels: ["provider", "kind"], expected: expected)
        let repaired = try GroupedCount.samples(input.database, """
            SELECT lower(s.provider::text) AS provider, d.kind, count(DISTINCT d.subscription_id)::float8 AS n
            FROM drift_event d JOIN subscription s ON s.id = d.subscription_id
            WHERE d.repaired AND d.detected_at <= $1 AND d.detected_at > $1::timestamptz - interval '24 hours'
            GROUP BY 1, 2
            """, [input.asOf], labels: ["provider", "kind"], expected: expected)
        return [
            MetricFamily(name: "iap_drift_subscriptions",
                         help: "Subscriptions whose database state still disagrees with the store's last verified answer (unrepaired drift_event rows not superseded by a later verification), by drift kind.",
                         samples: open),
            MetricFamily(name: "iap_drift_repaired_subscriptions",
                         help: "Subscriptions whose drift a store re-query found and repaired in the 24 hours before the as-of instant, by drift kind.",
                         samples: repaired),
        ]
    }
}

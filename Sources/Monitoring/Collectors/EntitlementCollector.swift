import Foundation
import Postgres

/// Entitlement leakage: access granted where the status says none is due, and access missing where it is due.
///
/// Leaked: a REVOKED, EXPIRED or ON_HOLD subscription that is the source of an active entitlement. Missing: an ACTIVE
/// subscription of a claimed purchase (it has a billing account) whose account holds no active entitlement for its plan.
enum EntitlementCollector {
    static let leakingStatuses = ["REVOKED", "EXPIRED", "ON_HOLD"]

    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let leaked = try GroupedCount.samples(input.database, """
            SELECT lower(s.provider::text) AS provider, s.status::text AS status, count(*)::float8 AS n
            FROM subscription s JOIN entitlement e ON e.source_subscription_id = s.id AND e.is_active
            WHERE s.status IN ('REVOKED', 'EXPIRED', 'ON_HOLD')
            GROUP BY 1, 2
            """, [], labels: ["provider", "status"], expected: GroupedCount.product(GroupedCount.providers, leakingStatuses))
        let missing = try GroupedCount.samples(input.database, """
            SELECT lower(s.provider::text) AS provider, count(*)::float8 AS n
            FROM subscription s
            WHERE s.status = 'ACTIVE' AND s.billing_account_id IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM entitlement e WHERE e.billing_account_id = s.billing_account_id
                                AND e.plan_id = s.plan_id AND e.is_active)
            GROUP BY 1
            """, [], labels: ["provider"], expected: GroupedCount.product(GroupedCount.providers))
        return [
            MetricFamily(name: "iap_entitlement_leaked_subscriptions",
                         help: "REVOKED, EXPIRED or ON_HOLD subscriptions that are still the source of an active entitlement, by status.",
                         samples: leaked),
            MetricFamily(name: "iap_entitlement_missing_subscriptions",
                         help: "ACTIVE subscriptions of a billing account that holds no active entitlement for the subscription's plan.",
                         samples: missing),
        ]
    }
}

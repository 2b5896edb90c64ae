import Foundation
import Postgres
import WorldGen

/// The subscriptions a world-vs-report comparison leaves out of both sides: the world's own unreachable faults and the
/// chain's documented limits (`ManifestRecall`), by reason; their history rows are deleted from the database.
struct UnreachableFaultExclusion {
    /// Subscription ids by reason (`chain_limit:` prefixes the chain's limits).
    let byReason: [String: Set<String>]
    /// Every excluded subscription id.
    var subscriptions: Set<String> { byReason.values.reduce(into: Set<String>()) { $0.formUnion($1) } }

    /// Collects the exclusions of `world` after the chain ran as of `asOf`, and removes their history rows.
    static func apply(_ world: GeneratedWorld, database: PostgresConnection, asOf: Date) throws -> UnreachableFaultExclusion {
        var byReason: [String: Set<String>] = [:]
        for group in WorldWriter.expectedMetrics(world).unreachableFaults {
            byReason[group.reason, default: []].formUnion(group.subscriptionIds)
        }
        for (reason, faults) in try ManifestRecall.reachable(world, database: database, asOf: asOf).excludedFaults {
            byReason["chain_limit:\(reason)", default: []].formUnion(faults.map(\.subscriptionId))
        }
        let exclusion = UnreachableFaultExclusion(byReason: byReason)
        let excluded = exclusion.subscriptions
        let identifiers = Set(world.manifest.faults.filter { excluded.contains($0.subscriptionId) }.map(\.storeIdentifier))
        try excludeFromHistory(database, subscriptions: excluded, storeIdentifiers: identifiers)
        return exclusion
    }

    /// Removes the history rows of `subscriptions` (the world's ids, or the store identities a chain-created row has).
    private static func excludeFromHistory(_ db: PostgresConnection, subscriptions: Set<String>, storeIdentifiers: Set<String>) throws {
        func list(_ values: Set<String>) -> String {
            values.isEmpty ? "NULL" : values.sorted().map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",")
        }
        try db.execute("""
            DELETE FROM billing_transaction WHERE subscription_id IN (
                SELECT id FROM subscription WHERE id::text IN (\(list(subscriptions)))
                UNION SELECT subscription_id FROM apple_subscription_identity WHERE original_transaction_id IN (\(list(storeIdentifiers)))
                UNION SELECT subscription_id FROM google_purchase_token WHERE purchase_token IN (\(list(storeIdentifiers))))
            """)
    }

    /// `reason=count …`, sorted, for a test's printed summary.
    var summary: String { byReason.keys.sorted().map { "\($0)=\(byReason[$0]?.count ?? 0)" }.joined(separator: " ") }
}

import Foundation
import Postgres
import WorldGen

/// Helpers shared by the repair-job tests.
enum RepairCheck {
    /// Rows that differ between two dumps, across all tables.
    static func changedRows(_ before: [String: [String]], _ after: [String: [String]]) -> [String] {
        Dump.tables.flatMap { table in
            Set(after[table] ?? []).symmetricDifference(Set(before[table] ?? [])).map { "\(table): \($0)" }
        }
    }

    /// Changed rows that mention none of the manifest's subscriptions, identifiers or events of `kinds`.
    static func outsideManifest(_ changed: [String], world: GeneratedWorld, kinds: Set<ProjectionFault>) -> [String] {
        let faults = world.manifest.faults.filter { kinds.contains($0.kind) }
        let markers = Set(faults.flatMap { [$0.subscriptionId, $0.storeIdentifier] + ($0.eventId.map { [$0] } ?? []) })
        return changed.filter { row in !markers.contains { row.contains($0) } }
    }

    /// The subscription column of each dumped table (inbound events are keyed by provider_event_id instead).
    static let keys = ["subscription": "id", "apple_subscription_identity": "subscription_id", "google_purchase_token": "subscription_id",
                       "billing_transaction": "subscription_id", "subscription_price_change": "subscription_id",
                       "entitlement": "source_subscription_id", "drift_event": "subscription_id", "inbound_webhook_event": "provider_event_id"]

    /// Canonical rows of every subscription in `subscriptions` (and of the inbound events not in `excludedEvents`).
    static func dump(_ database: PostgresConnection, subscriptions: Set<String>, excludedEvents: Set<String>,
                     ignoring: [String] = []) throws -> [String: [String]] {
        let ignored = ignoring.map { " - '\($0)'" }.joined()
        var result: [String: [String]] = [:]
        for table in Dump.tables {
            let key = keys[table] ?? "id"
            let inbound = table == "inbound_webhook_event"
            let filter = inbound ? "NOT (\(key) = ANY ($1::text[]))" : "\(key)::text = ANY ($1::text[])"
            let values = inbound ? excludedEvents : subscriptions
            result[table] = try database.query(
                "SELECT (to_jsonb(t) - 'last_verified_at' - 'job_run_id'\(ignored))::text AS row FROM \(table) t WHERE \(filter) ORDER BY 1",
                ["{" + values.sorted().joined(separator: ",") + "}"]
            ).rows.map { try $0.decode(String.self, "row") }
        }
        return result
    }

    /// The subscriptions present now that no fault of `kinds` names.
    static func untouched(_ database: PostgresConnection, world: GeneratedWorld, kinds: Set<ProjectionFault>) throws -> Set<String> {
        let faulted = Set(world.manifest.faults.filter { kinds.contains($0.kind) }.map(\.subscriptionId))
        return Set(try database.query("SELECT id::text AS id FROM subscription").rows.map { try $0.decode(String.self, "id") })
            .subtracting(faulted)
    }

    /// One integer from `sql` (column `n`).
    static func int(_ database: PostgresConnection, _ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> Int {
        try database.query(sql, parameters).first?.decode(Int.self, "n") ?? -1
    }
}

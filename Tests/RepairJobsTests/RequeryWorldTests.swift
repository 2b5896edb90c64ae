import Foundation
import Postgres
import Testing
import WorldGen

/// Canonical dumps of the projection tables, for "the second run changes nothing".
enum Dump {
    static let tables = ["subscription", "apple_subscription_identity", "google_purchase_token", "billing_transaction",
                         "subscription_price_change", "entitlement", "inbound_webhook_event", "drift_event"]

    static func all(_ database: PostgresConnection, ignoringPriceChangeUpdatedAt: Bool = false) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in tables {
            let extra = ignoringPriceChangeUpdatedAt && table == "subscription_price_change" ? " - 'updated_at'" : ""
            result[table] = try database.query(
                "SELECT (to_jsonb(t) - 'last_verified_at' - 'id' - 'job_run_id'\(extra))::text AS row FROM \(table) t ORDER BY 1"
            ).rows.map { try $0.decode(String.self, "row") }
        }
        return result
    }
}

@Suite(.serialized) struct RequeryWorldTests {
    static let visibleKinds: [ProjectionFault] = ProjectionFault.allCases.filter(\.visibleToRequery)

    @Test func repairsEveryVisibleFaultWithoutFalseDriftAndSecondRunChangesNothing() throws {
        var options = WorldOptions(seed: 17, subscriptions: 1_500, months: 12, testShare: 0)
        options.faultShares = Dictionary(uniqueKeysWithValues: Self.visibleKinds.map { ($0, 0.03) })
        let harness = try RequeryHarness(name: "repair_world", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let present = Set(try db.query("SELECT id::text AS id FROM subscription").rows.map { try $0.decode(String.self, "id") })
        // The documented exclusion: Google subscriptions whose recorded expiry is more than 60 days past are never queried
        // (a missed renewal can hide a live token behind a stale expiry; only a store-side signal could reveal it).
        let expiredGoogle = Set(try db.query("""
            SELECT id::text AS id FROM subscription WHERE provider = 'GOOGLE' AND current_period_end_at < $1::timestamptz - interval '60 days'
            """, [options.asOf]).rows.map { try $0.decode(String.self, "id") })
        let asOf = PostgresTimestamp.iso8601(options.asOf)

        let (code, summary) = harness.runJob(["--as-of", asOf, "--fresh-hours", "0", "--threads", "2"])
        #expect(code == .succeeded, "\(summary)")

        let queryable = Set(harness.world.truth.google.subscriptions.filter(\.queryable).map(\.purchaseToken))
        let faults = harness.world.manifest.faults.filter { $0.kind.visibleToRequery && ($0.provider == "APPLE" || queryable.contains($0.storeIdentifier))
            // A missed or failed first purchase leaves no subscription row: replay-events / recover-notifications own those.
            && present.contains($0.subscriptionId) && !expiredGoogle.contains($0.subscriptionId) }
        #expect(!faults.isEmpty)
        let drifted = Set(try db.query("SELECT DISTINCT subscription_id::text AS id FROM drift_event").rows.map { try $0.decode(String.self, "id") })
        var missing: [String] = []
        for fault in faults where !drifted.contains(fault.subscriptionId) {
            let item = try db.query("SELECT category || '/' || state || '/' || coalesce(outcome, last_error, '') AS o FROM requery_work_item WHERE subscription_id = $1::uuid", [fault.subscriptionId]).first?.decodeIfPresent(String.self, "o")
            missing.append("\(fault.kind.rawValue) \(fault.field) \(fault.provider) \(fault.databaseValue ?? "nil")→\(fault.correctValue ?? "nil") item \(item ?? "none")")
        }
        // A missed Apple price-increase consent shows as price drift on subscription_price_change.state.
        #expect(harness.world.manifest.faults.contains { $0.correctValue?.contains("PRICE_INCREASE/ACCEPTED") ?? false },
                "the world holds a missed price-increase consent")
        #expect(missing.isEmpty, "faults without drift: \(missing.count): \(missing.prefix(5))")
        var unrepaired: [String] = []
        for fault in faults where ["status", "acknowledgement_status", "current_recurring_price_micros", "current_period_end_at"].contains(fault.field) {
            let value = try db.query("SELECT \(fault.field)::text AS v FROM subscription WHERE id = $1::uuid", [fault.subscriptionId])
                .first?.decodeIfPresent(String.self, "v")
            if let correct = fault.correctValue, value != correct, !(fault.field == "current_period_end_at") {
                unrepaired.append("\(fault.kind.rawValue) \(fault.field): \(value ?? "nil") ≠ \(correct)")
            }
        }
        #expect(unrepaired.isEmpty, "not repaired: \(unrepaired.count): \(unrepaired.prefix(5))")
        let listed = Set(harness.world.manifest.faults.map(\.subscriptionId))
        let falseDrift = drifted.subtracting(listed)
        let examples = try falseDrift.prefix(3).map { id in
            try db.query("SELECT kind || ':' || field || ':' || coalesce(database_value, 'nil') || '→' || coalesce(store_value, 'nil') AS d FROM drift_event WHERE subscription_id = $1::uuid", [id])
                .rows.map { try $0.decode(String.self, "d") }
        }
        #expect(falseDrift.isEmpty, "drift outside the manifest on \(falseDrift.count) subscriptions: \(examples)")

        let before = try Dump.all(db)
        let beforeLoose = try Dump.all(db, ignoringPriceChangeUpdatedAt: true)
        let (secondCode, secondSummary) = harness.runJob(["--as-of", asOf, "--fresh-hours", "0", "--run-key", "second"])
        #expect(secondCode == .succeeded, "\(secondSummary)")
        let after = try Dump.all(db)
        let afterLoose = try Dump.all(db, ignoringPriceChangeUpdatedAt: true)
        for table in Dump.tables {
            let changed = Set(afterLoose[table] ?? []).symmetricDifference(Set(beforeLoose[table] ?? []))
            #expect(changed.isEmpty, "\(table) changed on the second run: \(changed.count) rows, e.g. \(Array(changed.prefix(2)))")
        }
        #expect(after == before, "the second run leaves every row byte-identical, updated_at included")
        #expect(secondSummary.contains("\"queried\":"), "the second run re-queried: \(secondSummary)")
        #expect(!secondSummary.contains("drift."), "no drift on the second run: \(secondSummary)")
        print("first run: \(summary)\nsecond run: \(secondSummary)")
    }
}

import Foundation
import JobKit
import Postgres
import RepairJobs
import Testing
import WorldGen

/// The nightly chain's repair jobs and the derived expiry after them, run in-process in `nightly`'s order against a harness's simulator.
struct NightlyChainRun {
    let harness: RequeryHarness
    let asOf: Date

    /// The jobs in order with their arguments. recover-notifications reaches back 170 days (inside Apple's 180) so
    /// a fresh database recovers every notification the history still holds; requery-at-risk ignores its
    /// freshness window so it also re-queries what the earlier jobs just verified.
    func steps(runKey: String) -> [(JobDefinition, [String])] {
        let at = PostgresTimestamp.iso8601(asOf)
        let since = PostgresTimestamp.iso8601(asOf.addingTimeInterval(-170 * 86_400))
        return [
            (ReplayEvents.definition(stores: harness.stores, verifier: harness.verifier), ["--as-of", at]),
            (RecoverNotifications.definition(stores: harness.stores, verifier: harness.verifier), ["--as-of", at, "--since", since]),
            (SweepVoided.definition(stores: harness.stores), ["--as-of", at]),
            (AckRescue.definition(stores: harness.stores), ["--as-of", at]),
            (RequeryAtRisk.definition(stores: harness.stores), ["--as-of", at, "--fresh-hours", "0", "--threads", "2", "--run-key", runKey]),
            (ExpireLapsed.definition(), ["--as-of", at]),
        ]
    }

    /// Runs the chain once; returns each job's exit code and summary line.
    @discardableResult
    func run(runKey: String) -> [(name: String, code: JobExitCode, summary: String)] {
        steps(runKey: runKey).map { definition, arguments in
            let (code, summary) = harness.run(definition, arguments)
            return (definition.name, code, summary)
        }
    }
}

/// A comparison of database state that ignores what legitimately differs between two runs over the same world:
/// surrogate ids (a subscription created by the chain gets a fresh uuid, so rows are keyed by the subscription's store
/// identity instead), job run ids, verification stamps, write-time audit columns, and an inbound event's attempt
/// bookkeeping.
enum ChainState {
    /// The tables compared: the projection and the inbound events. drift_event is left out: it records how a
    /// difference was found (a replay that failed leaves its repair to requery, which then reports the drift), not state.
    static let tables = Dump.tables.filter { $0 != "drift_event" }

    /// The column naming each table's subscription.
    static let subscriptionColumn = ["subscription": "id", "apple_subscription_identity": "subscription_id",
                                     "google_purchase_token": "subscription_id", "billing_transaction": "subscription_id",
                                     "subscription_price_change": "subscription_id", "entitlement": "source_subscription_id"]

    /// Canonical rows per table.
    static func dump(_ database: PostgresConnection) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        // Wall-clock columns: when a row was written or learned (recorded_at is the database clock at the insert).
        let ignored = " - 'id' - 'job_run_id' - 'last_verified_at' - 'created_at' - 'updated_at' - 'recorded_at'"
            + " - 'processing_attempts' - 'processing_error'"
        // An inbound event is named by its store id (a recovered event's row id is fresh in each run).
        let eventKey = "jsonb_build_object('inbound_event', (SELECT e.provider_event_id FROM inbound_webhook_event e WHERE e.id = t.inbound_event_id))"
        for table in tables {
            let sql: String
            if let column = subscriptionColumn[table] {
                sql = """
                    WITH k AS (
                      SELECT s.id, coalesce(a.original_transaction_id,
                             (SELECT min(g.purchase_token) FROM google_purchase_token g WHERE g.subscription_id = s.id)) AS store_key
                      FROM subscription s LEFT JOIN apple_subscription_identity a ON a.subscription_id = s.id)
                    SELECT (to_jsonb(t)\(ignored) - '\(column)' - 'inbound_event_id' || jsonb_build_object('store_key', k.store_key)
                            || \(table == "billing_transaction" ? eventKey : "'{}'::jsonb"))::text AS row
                    FROM \(table) t LEFT JOIN k ON k.id = t.\(column) ORDER BY 1
                    """
            } else {
                sql = "SELECT (to_jsonb(t)\(ignored))::text AS row FROM \(table) t ORDER BY 1"
            }
            result[table] = try database.query(sql).rows.map { Self.withoutSignatures(try $0.decode(String.self, "row")) }
        }
        return result
    }

    /// `text` with every compact JWS replaced by `<jws>`: two simulators sign with different test chains, and ES256
    /// signatures are randomised, so signed strings can never match; their decoded content is compared instead.
    static func withoutSignatures(_ text: String) -> String {
        text.replacingOccurrences(of: #"eyJ[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]+"#, with: "<jws>", options: .regularExpression)
    }

    /// Rows present in one dump but not the other, per table, with an example of each side.
    static func differences(_ left: [String: [String]], _ right: [String: [String]]) -> [String] {
        tables.compactMap { table in
            let a = Set(left[table] ?? []), b = Set(right[table] ?? [])
            let onlyLeft = a.subtracting(b), onlyRight = b.subtracting(a)
            guard !onlyLeft.isEmpty || !onlyRight.isEmpty else { return nil }
            return "\(table): \(onlyLeft.count) rows only in the first, \(onlyRight.count) only in the second, e.g. "
                + "\(onlyLeft.sorted().prefix(1).map { $0.prefix(900) }) vs \(onlyRight.sorted().prefix(1).map { $0.prefix(900) })"
        }
    }
}

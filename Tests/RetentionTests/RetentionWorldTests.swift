import Foundation
import JobKit
import Postgres
import Retention
import TestSupport
import Testing
import WorldGen

/// `retention` on a generated world: the dry run's counts equal the real run's and write nothing; the real run
/// deletes only old test rows, redacts old payloads, leaves every normalised column of what remains unchanged, and
/// records each count in job_run and audit_log; a closed period protects its rows.
@Suite(.serialized) struct RetentionWorldTests {
    static let options: WorldOptions = {
        var options = WorldOptions(seed: 31, subscriptions: 900, months: 18, testShare: 0.12)
        options.faultShares = WorldOptions.allFaults(0.02)
        return options
    }()

    /// Hashes of every row's normalised columns (raw payloads left out) and of its payload, per table.
    static let snapshotSQL = """
        CREATE TABLE retention_snapshot AS
        SELECT 'subscription' AS t, id::text AS id, md5((to_jsonb(s) - 'updated_at')::text) AS columns, '' AS payload FROM subscription s
        UNION ALL SELECT 'billing_transaction', id::text, md5((to_jsonb(b) - 'raw_payload')::text), md5(raw_payload::text) FROM billing_transaction b
        UNION ALL SELECT 'inbound_webhook_event', id::text, md5((to_jsonb(w) - 'payload')::text), md5(payload::text) FROM inbound_webhook_event w
        UNION ALL SELECT 'entitlement', id::text, md5(to_jsonb(e)::text), '' FROM entitlement e
        UNION ALL SELECT 'idempotency_key', id::text, md5(to_jsonb(k)::text), '' FROM idempotency_key k
        """

    static func world(_ name: String) throws -> (PostgresConnection, JobEnvironment) {
        // Set up as an installation is (roles.sql, migrations as iap_owner); the jobs connect as iap_job, the returned
        // connection (fixtures, assertions) is the superuser's.
        let roles = try RoleDatabase.fresh(name)
        let database = try PostgresConnection(configuration: roles.superuser)
        try WorldWriter.load(try World.generate(options), into: database)
        _ = try database.execute("""
            INSERT INTO idempotency_key (key, scope, created_at, expires_at)
            SELECT 'k' || n, 'purchase', $1::timestamptz - interval '3 days', $1::timestamptz + (n - 4) * interval '1 day'
            FROM generate_series(1, 5) n
            """, [options.asOf])
        // Raw payloads as the store answers carry them: a compact JWS (Apple) or a purchase token (Google), on 40 old
        // production charges (the world's own raw payloads hold only event ids).
        _ = try database.execute("""
            UPDATE billing_transaction b SET raw_payload = CASE WHEN b.provider = 'APPLE'
                THEN jsonb_build_object('signedTransactionInfo', 'eyJhbGciOiJFUzI1NiIsIng1YyI6W119.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJl',
                                        'notificationUUID', b.raw_payload ->> 'notificationUUID')
                ELSE jsonb_build_object('purchaseToken', 'opaque-token-' || b.id, 'messageId', b.raw_payload ->> 'messageId') END
            WHERE b.id IN (SELECT b2.id FROM billing_transaction b2 JOIN subscription s ON s.id = b2.subscription_id
                           WHERE NOT (s.is_sandbox OR s.is_test_purchase) AND b2.effective_at < $1::timestamptz - interval '200 days'
                           ORDER BY b2.id LIMIT 40)
            """, [options.asOf])
        _ = try database.execute(snapshotSQL)
        return (database, JobEnvironment(roles.environment(as: RoleDatabase.job)))
    }

    static func run(_ environment: JobEnvironment, _ arguments: [String], guard guardQuery: RetentionGuard = .closedPeriods)
        throws -> (JobExitCode, [String: Int], Int?) {
        let lines = Lines()
        let code = JobRunner.run(Retention.definition(guard: guardQuery),
                                 arguments: arguments + ["--as-of", PostgresTimestamp.iso8601(options.asOf), "--sandbox-days", "30",
                                                         "--payload-days", "180", "--log-format", "json"],
                                 environment: environment, output: { lines.append($0) })
        let last = try #require(lines.all.last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return (code, summary["counts"] as? [String: Int] ?? [:], summary["run_id"] as? Int)
    }

    static func int(_ db: PostgresConnection, _ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> Int {
        try db.query(sql, parameters).first?.decode(Int.self, "n") ?? -1
    }

    /// Rows whose hash (normalised columns, or payload) differs from the snapshot, or that vanished, per table.
    static func changes(_ db: PostgresConnection, column: String) throws -> [String: Int] {
        let rows = try db.query("""
            WITH now AS (
              SELECT 'subscription' AS t, id::text AS id, md5((to_jsonb(s) - 'updated_at')::text) AS columns, '' AS payload FROM subscription s
              UNION ALL SELECT 'billing_transaction', id::text, md5((to_jsonb(b) - 'raw_payload')::text), md5(raw_payload::text) FROM billing_transaction b
              UNION ALL SELECT 'inbound_webhook_event', id::text, md5((to_jsonb(w) - 'payload')::text), md5(payload::text) FROM inbound_webhook_event w
              UNION ALL SELECT 'entitlement', id::text, md5(to_jsonb(e)::text), '' FROM entitlement e
              UNION ALL SELECT 'idempotency_key', id::text, md5(to_jsonb(k)::text), '' FROM idempotency_key k)
            SELECT o.t || CASE WHEN n.id IS NULL THEN ':deleted' ELSE ':changed' END AS k, count(*)::int AS n
            FROM retention_snapshot o LEFT JOIN now n ON n.t = o.t AND n.id = o.id
            WHERE n.id IS NULL OR n.\(column) <> o.\(column)
            GROUP BY 1
            """).rows
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.decode(String.self, "k"), try $0.decode(Int.self, "n")) })
    }

    @Test func dryRunCountsEqualTheRealRunsAndNormalisedColumnsStayUnchanged() throws {
        let (db, environment) = try Self.world("test_retention_world")
        defer { db.close() }
        let testSubscriptions = try Self.int(db, "SELECT count(*)::int AS n FROM subscription WHERE is_sandbox OR is_test_purchase")
        #expect(testSubscriptions > 20, "the world holds test purchases")

        let productionBefore = try Self.int(db, "SELECT count(*)::int AS n FROM subscription WHERE NOT (is_sandbox OR is_test_purchase)")
        let (dryCode, dry, dryRun) = try Self.run(environment, ["--dry-run"])
        #expect(dryCode == .succeeded)
        #expect(dryRun == nil)
        #expect(try Self.changes(db, column: "columns").isEmpty, "the dry run changed or deleted rows")
        #expect(try Self.changes(db, column: "payload").isEmpty, "the dry run redacted payloads")
        #expect(try Self.int(db, "SELECT count(*)::int AS n FROM audit_log") == 0)
        #expect(try Self.int(db, "SELECT count(*)::int AS n FROM job_run") == 0)

        let (code, real, runID) = try Self.run(environment, [])
        #expect(code == .succeeded)
        #expect(real == dry, "dry run \(dry) vs run \(real)")
        for name in ["deleted_sandbox_subscriptions", "deleted_sandbox_transactions", "deleted_sandbox_events",
                     "redacted_transaction_payloads", "redacted_event_payloads"] {
            #expect((real[name] ?? 0) > 0, "\(name): \(real)")
        }
        #expect(real["expired_idempotency_keys"] == 3)
        #expect(real["redacted_transaction_payloads"] == 40, "exactly the seeded payloads carry secrets")

        // What was deleted is exactly what was counted; what remains kept every normalised column.
        let deletedOrChanged = try Self.changes(db, column: "columns")
        #expect(deletedOrChanged["subscription:deleted"] == real["deleted_sandbox_subscriptions"])
        #expect(deletedOrChanged["billing_transaction:deleted"] == real["deleted_sandbox_transactions"])
        #expect(deletedOrChanged["inbound_webhook_event:deleted"] == real["deleted_sandbox_events"])
        #expect(deletedOrChanged["entitlement:deleted"] == real["deleted_sandbox_entitlements"])
        #expect(deletedOrChanged["idempotency_key:deleted"] == 3)
        #expect(deletedOrChanged.keys.filter { $0.hasSuffix(":changed") }.isEmpty, "normalised columns changed: \(deletedOrChanged)")
        let payloads = try Self.changes(db, column: "payload")
        #expect(payloads["billing_transaction:changed"] == real["redacted_transaction_payloads"])
        #expect(payloads["inbound_webhook_event:changed"] == real["redacted_event_payloads"])

        // Only test purchases went, and none past the cutoff is left.
        #expect(try Self.int(db, "SELECT count(*)::int AS n FROM subscription WHERE NOT (is_sandbox OR is_test_purchase)") == productionBefore)
        #expect(try Self.int(db, """
            SELECT count(*)::int AS n FROM subscription WHERE (is_sandbox OR is_test_purchase)
              AND greatest(current_period_end_at, last_store_state_at, created_at) < $1::timestamptz - interval '30 days'
            """, [Self.options.asOf]) == 0)
        // Old payloads hold no JWS and no purchase token any more; recent ones are untouched.
        #expect(try Self.int(db, """
            SELECT count(*)::int AS n FROM billing_transaction
            WHERE effective_at < $1::timestamptz - interval '180 days'
              AND (raw_payload::text ~ 'eyJ[A-Za-z0-9_=-]+\\.' OR raw_payload::text ~ '"purchaseToken": "[^\\[]')
            """, [Self.options.asOf]) == 0)
        #expect(try Self.int(db, """
            SELECT count(*)::int AS n FROM billing_transaction WHERE effective_at >= $1::timestamptz - interval '180 days'
              AND raw_payload::text LIKE '%[redacted%'
            """, [Self.options.asOf]) == 0)

        // Each count is in job_run and, summed per rule, in audit_log.
        let recorded = try db.query("SELECT counts::text AS c FROM job_run WHERE id = $1", [try #require(runID)]).first?.decode(String.self, "c")
        let recordedCounts = try JSONDecoder().decode([String: Int].self, from: Data(try #require(recorded).utf8))
        #expect(recordedCounts == real)
        let audited = try db.query("""
            SELECT key AS name, sum(value::int)::int AS n FROM audit_log, jsonb_each_text(detail)
            WHERE actor = 'retention' AND key NOT IN ('sandbox_days', 'payload_days', 'job_run_id', 'as_of') GROUP BY key
            """).rows
        let auditedCounts = Dictionary(uniqueKeysWithValues: try audited.map { (try $0.decode(String.self, "name"), try $0.decode(Int.self, "n")) })
        #expect(auditedCounts.filter { $0.value > 0 } == real.filter { $0.value > 0 }, "audit \(auditedCounts) vs \(real)")

        // A second run finds nothing left to do.
        let (_, again, _) = try Self.run(environment, [])
        #expect(again.values.allSatisfy { $0 == 0 }, "\(again)")
    }

    @Test func aClosedPeriodKeepsTheTestRowsEffectiveInIt() throws {
        let (db, environment) = try Self.world("test_retention_guard")
        defer { db.close() }
        let everything = RetentionGuard(protectedPeriods: "SELECT '2000-01-01'::timestamptz AS start_at, '2100-01-01'::timestamptz AS end_at")
        let (code, counts, _) = try Self.run(environment, [], guard: everything)
        #expect(code == .succeeded)
        #expect(counts["deleted_sandbox_subscriptions"] == 0)
        #expect(counts["deleted_sandbox_transactions"] == 0)
        #expect(try Self.changes(db, column: "columns").filter { $0.key.hasPrefix("subscription") || $0.key.hasPrefix("billing") }.isEmpty)
    }

    @Test func badPeriodsAreUsageErrors() throws {
        for bad in [["--sandbox-days", "0"], ["--payload-days", "x"]] {
            #expect(throws: JobError.self, "\(bad)") {
                try RetentionSettings(try JobArguments.parse(bad, options: Retention.options), JobEnvironment([:]))
            }
        }
        #expect(throws: JobError.self) {
            try RetentionSettings(try JobArguments.parse(["--sandbox-days", "-3"], options: Retention.options), JobEnvironment([:]))
        }
        let settings = try RetentionSettings(try JobArguments.parse([], options: Retention.options),
                                             JobEnvironment(["RETENTION_SANDBOX_DAYS": "7"]))
        #expect(settings == RetentionSettings(sandboxDays: 7, payloadDays: RetentionSettings.defaultPayloadDays))
    }
}

/// Output lines collected from the runner's @Sendable closure.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

import Foundation
import JobKit
import Postgres

/// The `retention` job: deletes old sandbox and test-purchase rows, expires idempotency keys and redacts old raw
/// payloads (`RetentionRules`), counting every deletion in `job_run.counts` and in one `audit_log` row per rule.
///
/// All rules run in one transaction. With `--dry-run` the same statements run and the transaction is rolled back,
/// so the printed counts are exactly what a real run at the same instant would delete, and nothing is written.
public enum Retention {
    /// The job's own options.
    public static let options: [JobOption] = [
        .value("sandbox-days", placeholder: "n", help: "delete sandbox / test-purchase rows n days after their last activity (default $RETENTION_SANDBOX_DAYS or \(RetentionSettings.defaultSandboxDays))"),
        .value("payload-days", placeholder: "n", help: "redact raw payloads older than n days (default $RETENTION_PAYLOAD_DAYS or \(RetentionSettings.defaultPayloadDays))"),
    ]

    /// The job definition used by `Jobs/retention`; `guard` names the closed periods whose rows are never deleted.
    public static func definition(guard guardQuery: RetentionGuard = .closedPeriods) -> JobDefinition {
        JobDefinition(name: "retention", summary: "delete old sandbox / test rows, expire idempotency keys, redact old raw payloads",
                      options: options) { context in
            let settings = try RetentionSettings(context.arguments, context.environment)
            let counts = try apply(settings, guard: guardQuery, context: context)
            for (name, value) in counts { context.setCount(name, value) }
            if context.dryRun { context.note("dry_run_note", "counts are what a run would delete; nothing was written") }
        }
    }

    /// Runs every rule in one transaction and returns the counts; rolls back under `--dry-run`.
    static func apply(_ settings: RetentionSettings, guard guardQuery: RetentionGuard, context: JobContext) throws -> [(String, Int)] {
        let sandboxCutoff = context.asOf.addingTimeInterval(-Double(settings.sandboxDays) * 86_400)
        let payloadCutoff = context.asOf.addingTimeInterval(-Double(settings.payloadDays) * 86_400)
        var counts: [(String, Int)] = []
        try context.transactionRolledBackOnDryRun { db in
            _ = try db.execute(RetentionRules.redactFunction)
            for rule in RetentionRules.all(guardQuery) {
                let (sql, values) = rule.bound(asOf: context.asOf, sandboxCutoff: sandboxCutoff, payloadCutoff: payloadCutoff)
                guard let row = try db.query(sql, values.map { $0 as any PostgresEncodable }).first else { throw JobError.failed("the \(rule.entity) rule selected no counts") }
                var total = 0
                var detail: [String: Int] = [:]
                for name in rule.counts {
                    let value = try row.decode(Int.self, name)
                    counts.append((name, value))
                    detail[name] = value
                    total += value
                }
                context.logger.info("\(rule.action) \(rule.entity)", detail.mapValues { String($0) })
                if total > 0 {
                    try audit(db, rule, detail: detail, settings: settings, runID: context.runID, asOf: context.asOf)
                }
            }
        }
        return counts
    }

    private static func audit(_ db: PostgresConnection, _ rule: RetentionRule, detail: [String: Int], settings: RetentionSettings,
                              runID: Int64?, asOf: Date) throws {
        var fields = detail.map { "\"\($0.key)\": \($0.value)" }
        fields += ["\"sandbox_days\": \(settings.sandboxDays)", "\"payload_days\": \(settings.payloadDays)",
                   "\"job_run_id\": \(runID.map { String($0) } ?? "null")", "\"as_of\": \"\(PostgresTimestamp.iso8601(asOf))\""]
        _ = try db.execute("INSERT INTO audit_log (actor, action, entity, detail) VALUES ('retention', $1, $2, $3::jsonb)",
                       [rule.action, rule.entity, "{" + fields.sorted().joined(separator: ", ") + "}"])
    }
}

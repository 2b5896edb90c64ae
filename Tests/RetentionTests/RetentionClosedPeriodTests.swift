import Foundation
import JobKit
import Postgres
import Reconciliation
import Reporting
import Retention
import Testing

/// `retention` after a month-end close: the closed month's reports, built again on the known basis at the same
/// instant, are byte-identical to the files `close-period` snapshotted, although retention (with periods short enough
/// to reach inside and around that month) deleted old test purchases and redacted old payloads; the dry run's counts
/// equal the real run's, and no normalised column of a remaining row changed.
@Suite(.serialized) struct RetentionClosedPeriodTests {
    /// The repository's Reports/ folder (the report SQL as it ships).
    static let reportSQL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Reports")
    /// The month closed: the one before the world's as-of (2026-11-29).
    static let month = "2026-10"

    static func run(_ definition: JobDefinition, _ environment: JobEnvironment, _ arguments: [String]) throws -> (JobExitCode, [String: Int], String) {
        let lines = Lines()
        let code = JobRunner.run(definition, arguments: arguments + ["--as-of", PostgresTimestamp.iso8601(RetentionWorldTests.options.asOf),
                                                                     "--log-format", "json"],
                                 environment: environment, output: { lines.append($0) })
        let last = lines.all.last ?? ""
        let summary = (try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]) ?? [:]
        return (code, summary["counts"] as? [String: Int] ?? [:], last)
    }

    /// The closed month's reports (known basis, CSV and workbook) into `folder`.
    /// build-reports for the closed month on the known basis as of `asOf` (the month-end build the close snapshots).
    static func buildReports(_ environment: JobEnvironment, asOf: String, into folder: URL) throws {
        let (code, counts, line) = try run(BuildReports.definition(), environment, [
            "--period", month, "--basis", "known", "--as-of", asOf, "--sql-dir", reportSQL.path, "--out", folder.path])
        #expect(code == .succeeded, "build-reports: \(line)")
        #expect((counts["reports"] ?? 0) > 0, "build-reports: \(line)")
    }

    @Test func theClosedMonthsReportsAreByteIdenticalAfterRetention() throws {
        let (db, environment) = try RetentionWorldTests.world("test_retention_closed")
        defer { db.close() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("retention-closed-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let closedReports = scratch.appendingPathComponent("closed"), rebuilt = scratch.appendingPathComponent("rebuilt")
        // Store-shaped secrets inside the month too (a compact JWS or a purchase token on production charges effective
        // in it), so retention redacts inside the closed month, not only before it.
        let seededInside = try db.execute("""
            UPDATE billing_transaction b SET raw_payload = CASE WHEN b.provider = 'APPLE'
                THEN jsonb_build_object('signedTransactionInfo', 'eyJhbGciOiJFUzI1NiIsIng1YyI6W119.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJl')
                ELSE jsonb_build_object('purchaseToken', 'opaque-token-' || b.id) END
            WHERE b.id IN (SELECT id FROM billing_transaction
                           WHERE effective_at >= '2026-10-01' AND effective_at < '2026-11-01' ORDER BY id LIMIT 30)
            """)
        #expect(seededInside == 30)

        // The month-end build's instant: the close (later) reconciles and stores its runs after it, so the rebuild as of
        // the same instant must not show them.
        let buildAsOf = PostgresTimestamp.iso8601(Date())
        try Self.buildReports(environment, asOf: buildAsOf, into: closedReports)
        let (closeCode, closeCounts, closeLine) = try Self.run(ClosePeriod.definition(), environment,
                                                               ["--period", Self.month, "--reports", closedReports.path,
                                                                "--without-store-reports"])
        #expect(closeCode == .succeeded, "close-period: \(closeLine)")
        #expect((closeCounts["report_files_hashed"] ?? 0) > 1, "close-period: \(closeLine)")
        let snapshots = try db.query("SELECT name, content FROM period_snapshot WHERE name LIKE 'reports/%' ORDER BY name").rows
            .map { (String(try $0.decode(String.self, "name").dropFirst("reports/".count)), try $0.decode(Data.self, "content")) }
        #expect(snapshots.count == closeCounts["report_files_hashed"])
        // The lock covers Google's October and Apple's fiscal period ending in October; retention must reach around it.
        let locked = try db.query("SELECT min(starts_at) AS a, max(ends_at) AS b FROM period_lock").first
        let lockStart = try #require(try locked?.decodeIfPresent(Date.self, "a"))
        let lockEnd = try #require(try locked?.decodeIfPresent(Date.self, "b"))

        _ = try db.execute("DROP TABLE IF EXISTS retention_snapshot")
        _ = try db.execute(RetentionWorldTests.snapshotSQL)
        let testRowsInside = try RetentionWorldTests.int(db, """
            SELECT count(DISTINCT s.id)::int AS n FROM subscription s JOIN billing_transaction b ON b.subscription_id = s.id
            WHERE (s.is_sandbox OR s.is_test_purchase) AND b.effective_at >= $1 AND b.effective_at < $2
            """, [lockStart, lockEnd])
        #expect(testRowsInside > 0, "the closed month holds test purchases for retention to keep")

        let short = ["--sandbox-days", "1", "--payload-days", "1"]
        let (dryCode, dry, dryLine) = try Self.run(Retention.definition(), environment, short + ["--dry-run"])
        #expect(dryCode == .succeeded, "retention --dry-run: \(dryLine)")
        #expect(try RetentionWorldTests.changes(db, column: "columns").isEmpty, "the dry run changed or deleted rows")
        #expect(try RetentionWorldTests.changes(db, column: "payload").isEmpty, "the dry run redacted payloads")
        let (code, real, line) = try Self.run(Retention.definition(), environment, short)
        #expect(code == .succeeded, "retention: \(line)")
        #expect(real == dry, "dry run \(dry) vs run \(real)")
        #expect((real["deleted_sandbox_subscriptions"] ?? 0) > 0 && (real["redacted_transaction_payloads"] ?? 0) >= 30, "\(real)")

        // Deleted exactly what was counted; no remaining row changed a normalised column; redaction reached inside the month.
        let changed = try RetentionWorldTests.changes(db, column: "columns")
        #expect(changed["subscription:deleted"] == real["deleted_sandbox_subscriptions"])
        #expect(changed["billing_transaction:deleted"] == real["deleted_sandbox_transactions"])
        #expect(changed.keys.filter { $0.hasSuffix(":changed") }.isEmpty, "normalised columns changed: \(changed)")
        #expect(try RetentionWorldTests.int(db, """
            SELECT count(*)::int AS n FROM billing_transaction WHERE effective_at >= '2026-10-01' AND effective_at < '2026-11-01'
              AND raw_payload::text LIKE '%[redacted%'
            """) >= 30, "payloads inside the closed month were redacted")
        #expect(try RetentionWorldTests.int(db, """
            SELECT count(DISTINCT s.id)::int AS n FROM subscription s JOIN billing_transaction b ON b.subscription_id = s.id
            WHERE (s.is_sandbox OR s.is_test_purchase) AND b.effective_at >= $1 AND b.effective_at < $2
            """, [lockStart, lockEnd]) == testRowsInside, "test purchases effective in the closed period are kept")

        // Every report of the closed month, built again, equals its snapshot byte for byte.
        try Self.buildReports(environment, asOf: buildAsOf, into: rebuilt)
        for (name, stored) in snapshots {
            let written = try Data(contentsOf: rebuilt.appendingPathComponent(name))
            #expect(written == stored, "\(name): \(written.count) bytes rebuilt vs \(stored.count) snapshotted")
        }
        let rebuiltNames = Set(try FileManager.default.contentsOfDirectory(atPath: rebuilt.path))
        #expect(rebuiltNames == Set(snapshots.map(\.0)), "the same report files")
    }
}

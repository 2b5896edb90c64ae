import BillingCore
import Foundation
import JobKit
import Postgres
import Reconciliation
import Reporting
import RepairJobs
import ReportImport
import Testing
import WorldGen

/// Knowledge time after a month-end close (issue 27): webhooks stored before the close but projected after it by
/// `replay-events` (an Apple refund, Apple and Google renewals; `sweep-voided` runs too, though Google's 30-day void
/// window reaches only the closed month's last days, so this world has no late void there; LateGoogleVoidAfterCloseTests
/// stages one by hand) are recorded when the
/// database learned them, not when the store acted or the webhook arrived. So the closed month's snapshot
/// and its `--basis known` reports as of the close stay byte-identical, and each late money row is a prior-period
/// adjustment of the next open period, in its reconciliation and in the reconciliation report.
///
/// On the earlier rule (`recorded_at` = the webhook's arrival, or the job's `--as-of`) the same rows looked known
/// before the close: none of them was an adjustment, and the known-basis reports of the closed month changed.
@Suite(.serialized) struct LateRowsAfterCloseTests {
    static let reportSQL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Reports")
    /// The month closed: the one before the world's as-of (2026-11-29).
    static let month = "2026-10"

    struct LateRow: Hashable {
        let provider: String
        let eventType: String
        let key: String
        let amount: Int64
    }

    @Test func rowsLearnedAfterTheCloseAreAdjustmentsAndTheClosedMonthNeverChanges() throws {
        var options = WorldOptions(seed: 53, subscriptions: 600, months: 4, testShare: 0)
        options.faultShares = [.failedWebhook: 0.3, .voidedPurchaseNotApplied: 0.08]
        let harness = try RequeryHarness(name: "late_rows_close", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("late-rows-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Self.importReports(harness, into: scratch, asOf: asOf)

        // Month-end: the closed month's reports on the known basis, then the close snapshotting them.
        let closedReports = scratch.appendingPathComponent("closed"), rebuilt = scratch.appendingPathComponent("rebuilt")
        let buildAsOf = PostgresTimestamp.iso8601(Date())
        try buildReports(harness, period: Self.month, basis: "known", asOf: buildAsOf, into: closedReports)
        let (closeCode, closeLine) = harness.run(ClosePeriod.definition(), [
            "--period", Self.month, "--reports", closedReports.path, "--as-of", asOf])
        #expect(closeCode == .succeeded, "close-period: \(closeLine)")
        let closedAt = try #require(try db.query("SELECT closed_at FROM period_close WHERE period = $1", [Self.month]).first)
            .decode(Date.self, "closed_at")
        let snapshotsBefore = try snapshots(db)
        let knownBefore = try db.query("""
            SELECT count(*)::int8 AS n FROM billing_transaction b JOIN period_lock l ON l.provider = b.provider
            WHERE b.effective_at >= l.starts_at AND b.effective_at < l.ends_at
            """).first?.decode(Int64.self, "n") ?? 0

        // Late: stored webhooks replayed and Google voids swept, after the close.
        let (replayCode, replayLine) = harness.run(ReplayEvents.definition(stores: harness.stores, verifier: harness.verifier),
                                                   ["--as-of", asOf])
        #expect(replayCode == .succeeded, "replay-events: \(replayLine)")
        let (sweepCode, sweepLine) = harness.run(SweepVoided.definition(stores: harness.stores), ["--as-of", asOf])
        #expect(sweepCode == .succeeded, "sweep-voided: \(sweepLine)")

        // Every row the jobs wrote into the closed ranges is recorded after the close.
        let written = try db.query("""
            SELECT b.provider::text AS provider, b.event_type::text AS type, b.transaction_key AS key, b.amount_micros AS amount,
                   b.recorded_at > $1 AS after_close
            FROM billing_transaction b JOIN period_lock l ON l.provider = b.provider
            WHERE b.effective_at >= l.starts_at AND b.effective_at < l.ends_at AND b.recorded_at > $1 - interval '1 second'
            """, [closedAt]).rows
        #expect(try written.allSatisfy { try $0.decode(Bool.self, "after_close") }, "a row of the closed ranges was recorded before the close")
        let late = Set(try written.compactMap { row -> LateRow? in
            guard let amount = try row.decodeIfPresent(Int64.self, "amount"), amount != 0,
                  MoneyEvents.all.contains(try row.decode(String.self, "type")) else { return nil }
            return LateRow(provider: try row.decode(String.self, "provider"), eventType: try row.decode(String.self, "type"),
                           key: try row.decode(String.self, "key"), amount: amount)
        })
        let total = try db.query("""
            SELECT count(*)::int8 AS n FROM billing_transaction b JOIN period_lock l ON l.provider = b.provider
            WHERE b.effective_at >= l.starts_at AND b.effective_at < l.ends_at
            """).first?.decode(Int64.self, "n") ?? 0
        #expect(total - knownBefore == Int64(written.count), "the closed ranges gained only late rows")
        #expect(late.contains { $0.provider == "APPLE" && $0.amount < 0 }, "a late Apple refund: \(late)")
        #expect(late.contains { $0.provider == "GOOGLE" && $0.amount > 0 }, "a late Google renewal: \(late)")
        #expect(late.contains { $0.provider == "APPLE" && $0.eventType == "RENEWED" }, "a late Apple renewal: \(late)")

        // The closed month is unchanged: its known-basis reports as of the month-end build, and its snapshot.
        try buildReports(harness, period: Self.month, basis: "known", asOf: buildAsOf, into: rebuilt)
        let closedNames = try FileManager.default.contentsOfDirectory(atPath: closedReports.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: rebuilt.path).sorted() == closedNames)
        for name in closedNames {
            let before = try Data(contentsOf: closedReports.appendingPathComponent(name))
            let after = try Data(contentsOf: rebuilt.appendingPathComponent(name))
            #expect(before == after, "\(name) of the closed month changed")
        }
        #expect(try snapshots(db) == snapshotsBefore)
        let periods = ClosePeriod.periods(ofMonth: Self.month)
        for period in periods {
            let (code, line) = harness.run(Reconcile.definition(), Self.asking(period) + [
                "--out", scratch.appendingPathComponent("rerun").path, "--as-of", asOf])
            #expect(code == .succeeded && line.contains("\"closed_periods_reproduced\":1"), "\(period): \(line)")
        }

        // The next open period carries each late money row as a prior-period adjustment of the closed one.
        for period in periods {
            let next = try #require(period.next)
            let (code, line) = harness.run(Reconcile.definition(), Self.asking(next) + [
                "--out", scratch.appendingPathComponent("next").path, "--as-of", asOf])
            #expect(code == .succeeded, "\(next): \(line)")
            let adjusted = Set(try db.query("""
                SELECT i.detail, i.adjustment_period FROM reconciliation_item i JOIN reconciliation_run r ON r.id = i.run_id
                WHERE r.provider = $1 AND r.period = $2 AND r.superseded_by IS NULL AND i.prior_period_adjustment
                """, [next.provider.rawValue, next.label]).rows.map {
                try $0.decode(String.self, "detail") + " " + (try $0.decodeIfPresent(String.self, "adjustment_period") ?? "")
            })
            // Each names the late row's transaction key, its purchase token masked (the order stays whole).
            let expected = Set(late.filter { $0.provider == next.provider.databaseLabel }.map { Redaction.transactionKey($0.key) + " " + period.label })
            #expect(!expected.isEmpty, "\(next): no late rows")
            #expect(adjusted == expected, "\(next): adjustments \(adjusted.subtracting(expected)) unexpected, \(expected.subtracting(adjusted)) missing")
        }

        // And the reconciliation report of the next month shows them on their own rows.
        let nextReports = scratch.appendingPathComponent("next-reports")
        try buildReports(harness, period: "2026-11", basis: "corrected", asOf: PostgresTimestamp.iso8601(Date()), into: nextReports)
        let reconciliation = try String(contentsOf: nextReports.appendingPathComponent("reconciliation.csv"), encoding: .utf8)
        #expect(reconciliation.contains("prior_period_adjustment"), "the reconciliation report lists the adjustments")
    }

    /// Writes the world's report files under `scratch` (2% discrepancies) and imports them as of `asOf`.
    static func importReports(_ harness: RequeryHarness, into scratch: URL, asOf: String) throws {
        _ = try WorldWriter.writeFiles(harness.world, to: scratch, reportShares: .all(0.02))
        let (code, line) = harness.run(ImportExports.definition(), [
            "--reports-dir", scratch.appendingPathComponent("reports").path, "--as-of", asOf])
        #expect(code == .succeeded, "import-exports: \(line)")
    }

    /// reconcile's arguments naming `period`: Google's month, Apple's fiscal label (`--period` is a calendar month).
    static func asking(_ period: ReconciliationPeriod) -> [String] {
        period.fiscalPeriod.map { ["--fiscal-period", ReconciliationPeriod.fiscalArgument($0)] }
            ?? ["--provider", period.provider.rawValue, "--period", period.label]
    }

    /// build-reports for `period` on `basis` as of `asOf` into `folder`.
    func buildReports(_ harness: RequeryHarness, period: String, basis: String, asOf: String, into folder: URL) throws {
        let (code, line) = harness.run(BuildReports.definition(), [
            "--period", period, "--basis", basis, "--as-of", asOf, "--sql-dir", Self.reportSQL.path, "--out", folder.path])
        #expect(code == .succeeded, "build-reports: \(line)")
    }

    /// The close's stored snapshot: name and SHA-256 of each file.
    func snapshots(_ db: PostgresConnection) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try db.query("SELECT name, content_sha256 FROM period_snapshot").rows.map {
            (try $0.decode(String.self, "name"), try $0.decode(String.self, "content_sha256"))
        })
    }
}

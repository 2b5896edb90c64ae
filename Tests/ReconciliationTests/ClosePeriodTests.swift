import BillingCore
import Foundation
import Postgres
import Reconciliation
import ReportImport
import StoreExports
import Testing

/// Month-end close on a generated world: the lock, a late refund as a prior-period adjustment of the next month,
/// the closed month reproducing byte for byte, and the audited reopen.
@Suite(.serialized) struct ClosePeriodTests {
    @Test func closeLockLateRefundReproduceReopen() throws {
        let harness = try ReconcileHarness("close", seed: 5)
        try harness.importReports()
        let periods = try harness.periods(.google)
        try #require(periods.count >= 3)
        let month = periods[1]
        let following = periods[2]
        try harness.writeReportFile()
        let (code, counts, line) = try harness.run(ClosePeriod.definition(), ["--period", month.label, "--reports", harness.out.path])
        #expect(code == .succeeded, "\(line)")
        #expect(counts["snapshots"] == 5, "\(line)")

        // The lock: a row effective in the closed month can be neither changed nor deleted.
        let charge = try #require(try harness.database.query("""
            SELECT transaction_key FROM billing_transaction b
            WHERE provider = 'GOOGLE' AND amount_micros > 0 AND NOT is_test AND order_id IS NOT NULL
              AND effective_at >= to_timestamp($1) AND effective_at < to_timestamp($2) - interval '2 days'
              AND NOT EXISTS (SELECT 1 FROM billing_transaction r WHERE r.refunded_transaction_key = b.transaction_key)
            ORDER BY transaction_key LIMIT 1
            """, [month.start, month.end]).first).decode(String.self, "transaction_key")
        #expect(throws: PostgresError.self) {
            try harness.database.execute("UPDATE billing_transaction SET reason = 'x' WHERE transaction_key = $1", [charge])
        }
        #expect(throws: PostgresError.self) {
            try harness.database.execute("DELETE FROM billing_transaction WHERE transaction_key = $1", [charge])
        }

        // A late refund of that charge, effective in the closed month: the insert is allowed.
        let refundKey = charge + ":REFUNDED"
        #expect(try harness.database.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, order_id,
                amount_micros, currency_code, country_code, product_id, refunded_transaction_key, refund_kind, raw_payload)
            SELECT subscription_id, provider, 'REFUNDED', $2, effective_at + interval '1 day', order_id, -amount_micros,
                   currency_code, country_code, product_id, transaction_key, 'REFUND', '{}'
            FROM billing_transaction WHERE transaction_key = $1
            """, [charge, refundKey]) == 1)

        // The next month lists it as a prior-period adjustment of the closed month.
        let (nextCode, _, nextLine) = try harness.run(Reconcile.definition(), ["--provider", "google", "--period", following.label,
                                                                               "--out", harness.out.path])
        #expect(nextCode == .succeeded, "\(nextLine)")
        let adjustments = try harness.items(.google, following.label).filter(\.priorPeriodAdjustment)
        #expect(adjustments.map(\.detail) == [Redaction.transactionKey(refundKey)])
        #expect(adjustments.first?.adjustmentPeriod == month.label)
        #expect(adjustments.first?.category == .missingInStoreReport)
        #expect(adjustments.first?.databaseGross ?? 0 < 0)

        // The closed month, reconciled again, reproduces its snapshot byte for byte (the late refund is not in it).
        let rerunOut = harness.folder.appendingPathComponent("rerun")
        let (closedCode, closedCounts, closedLine) = try harness.run(Reconcile.definition(), [
            "--provider", "google", "--period", month.label, "--out", rerunOut.path])
        #expect(closedCode == .succeeded, "\(closedLine)")
        #expect(closedCounts["closed_periods_reproduced"] == 1, "\(closedLine)")
        let stem = Reconcile.fileStem(month)
        for name in [stem + ".csv", stem + "_totals.csv"] {
            let stored = try #require(try harness.database.query(
                "SELECT content FROM period_snapshot WHERE name = $1", [name]).first).decode(Data.self, "content")
            let written = try Data(contentsOf: rerunOut.appendingPathComponent(name))
            #expect(written == stored, "\(name)")
            #expect(!stored.isEmpty)
        }

        // Reopen: recorded with its reason; the row can change again.
        let (usage, _, _) = try harness.run(ClosePeriod.definition(), ["--period", month.label, "--reopen"])
        #expect(usage == .usageOrConfiguration)
        let (reopened, _, reopenLine) = try harness.run(ClosePeriod.definition(), ["--period", month.label, "--reopen",
                                                                                   "--reason", "late refund"])
        #expect(reopened == .succeeded, "\(reopenLine)")
        #expect(try harness.scalar("""
            SELECT count(*)::int8 AS n FROM audit_log WHERE action = 'reopen' AND detail->>'reason' = 'late refund'
            """) == 1)
        #expect(try harness.database.execute("UPDATE billing_transaction SET reason = 'x' WHERE transaction_key = $1", [charge]) == 1)
    }

    /// A corrected Apple financial file for a closed fiscal period would replace the staged rows the close compared:
    /// import-exports refuses it, naming the file and the lock, and changes nothing; the closed period still
    /// reproduces its snapshot; after a reopen the same file replaces the earlier one.
    @Test func correctedFileOfAClosedPeriodIsRefused() throws {
        let harness = try ReconcileHarness("close_fix", seed: 5, subscriptions: 300)
        try harness.importReports()
        let month = try harness.periods(.google)[1]
        try harness.writeReportFile()
        let (code, _, line) = try harness.run(ClosePeriod.definition(), ["--period", month.label, "--reports", harness.out.path])
        #expect(code == .succeeded, "\(line)")
        let compared = try #require(try harness.database.query("""
            SELECT f.file_name, l.report_period FROM period_lock l JOIN reconciliation_run r ON r.id = l.run_id
            JOIN report_file f ON r.report_files @> jsonb_build_array(jsonb_build_object('id', f.id))
            WHERE l.provider = 'APPLE' AND f.kind = 'appleFinancial' ORDER BY f.file_name LIMIT 1
            """).first, "the Apple close compared no financial file")
        let name = try compared.decode(String.self, "file_name")
        let applePeriod = try compared.decode(String.self, "report_period")
        let path = try #require(FileManager.default.enumerator(atPath: harness.folder.path)?.compactMap { $0 as? String }
            .first { $0.hasSuffix("/" + name) })
        let file = harness.folder.appendingPathComponent(path)
        // The correction: the same rows in another order (the content hash changes, the totals do not).
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        try #require(lines.count > 3 && !lines[2].isEmpty && !lines[2].hasPrefix("Total_"), "\(name) has fewer than two rows")
        lines.swapAt(1, 2)
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let digest = """
            SELECT md5(string_agg(concat_ws(',', id, content_sha256, replaced_by), ';' ORDER BY id))
                || (SELECT count(*) FROM apple_financial_row)::text
                || (SELECT count(*) FROM audit_log)::text AS d FROM report_file
            """
        let before = try #require(try harness.database.query(digest).first).decode(String.self, "d")

        let reports = harness.folder.appendingPathComponent("reports").path
        let (refused, counts, refusedLine) = try harness.run(ImportExports.definition(), ["--reports-dir", reports])
        #expect(refused == .failed, "\(refusedLine)")
        #expect(counts["files_closed_period"] == 1, "\(refusedLine)")
        #expect(refusedLine.contains(name) && refusedLine.contains("period \(applePeriod) is locked")
                && refusedLine.contains("close of \(month.label)"), "\(refusedLine)")
        #expect(try harness.database.query(digest).first?.decode(String.self, "d") == before)

        let (closedCode, closedCounts, closedLine) = try harness.run(Reconcile.definition(), [
            "--fiscal-period", ReconciliationPeriod.fiscalArgument(try #require(FiscalPeriod(reportDate: applePeriod))),
            "--out", harness.folder.appendingPathComponent("rerun").path])
        #expect(closedCode == .succeeded, "\(closedLine)")
        #expect(closedCounts["closed_periods_reproduced"] == 1, "\(closedLine)")

        let (reopened, _, reopenLine) = try harness.run(ClosePeriod.definition(), ["--period", month.label, "--reopen",
                                                                                   "--reason", "corrected Apple file"])
        #expect(reopened == .succeeded, "\(reopenLine)")
        let (accepted, acceptedCounts, acceptedLine) = try harness.run(ImportExports.definition(), ["--reports-dir", reports])
        #expect(accepted == .succeeded, "\(acceptedLine)")
        #expect(acceptedCounts["files_replaced"] == 1, "\(acceptedLine)")
    }

    @Test func rerunSupersedesWithIdenticalContent() throws {
        let harness = try ReconcileHarness("rerun", seed: 9, subscriptions: 200, months: 2)
        try harness.importReports()
        // The first month with a staged earnings file (a month without one is refused, exit 3).
        let staged = try #require(try harness.database.query(
            "SELECT min(period) AS p FROM report_file WHERE kind = 'googleEarnings' AND replaced_by IS NULL").first).decode(String.self, "p")
        let period = try #require(ReconciliationPeriod(.google, staged))
        let arguments = ["--provider", "google", "--period", period.label, "--out", harness.out.path]
        try harness.run(Reconcile.definition(), arguments)
        let first = try Data(contentsOf: harness.out.appendingPathComponent(Reconcile.fileStem(period) + ".csv"))
        try harness.importReports()
        try harness.run(Reconcile.definition(), arguments)
        let second = try Data(contentsOf: harness.out.appendingPathComponent(Reconcile.fileStem(period) + ".csv"))
        #expect(first == second)
        #expect(try harness.scalar("SELECT count(*)::int8 AS n FROM reconciliation_run WHERE superseded_by IS NOT NULL") == 1)
        #expect(try harness.scalar("SELECT count(DISTINCT content_sha256)::int8 AS n FROM reconciliation_run") == 1)
        #expect(try harness.scalar("""
            SELECT count(*)::int8 AS n FROM audit_log WHERE action = 'supersede' AND (detail->>'same_content')::boolean
            """) == 1)
    }

    @Test func withNothingStagedReconcileSucceedsDoingNothing() throws {
        let harness = try ReconcileHarness("empty", seed: 2, subscriptions: 20, months: 1)
        let (code, counts, line) = try harness.run(Reconcile.definition(), ["--out", harness.out.path])
        #expect(code == .succeeded, "\(line)")
        #expect(counts["periods"] == nil, "\(line)")
        #expect(line.contains("no staged report files"))
    }
}

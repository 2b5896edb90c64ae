import Foundation
import JobKit
import Postgres
import Reconciliation
import RepairJobs
import ReportImport
import TestSupport
import Testing
import WorldGen

/// Closing the loop (issue 28, finding 6): reconcile → requery-at-risk (`reconciliation`) → reconcile on a generated
/// world, every job run as `iap_job`. The items the stores can answer for are resolved — charges whose rows are gone,
/// Google partial refunds written with their amounts, refunds never projected — and the others keep a reason.
@Suite(.serialized) struct ReconciliationLoopTests {
    static let categories = ["missing_in_database", "refund_not_reflected", "amount_mismatch"]

    @Test func theStoresAnswerForWhatReconcileFoundAndTheRerunShowsItResolved() throws {
        let options = WorldOptions(seed: 28, subscriptions: 400, months: 3, testShare: 0)
        let harness = try RequeryHarness(name: "reconciliation_loop", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reconciliation-loop-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = try #require(try WorldWriter.writeFiles(harness.world, to: folder, reportShares: .all(0.03)))
        try StoreReports.applyToDatabase(reports, database: db)
        var environment = harness.environment.variables
        environment["PGUSER"] = RoleDatabase.job
        environment["DATABASE_URL"] = nil
        let asJob = JobEnvironment(environment)
        func run(_ definition: JobDefinition, _ arguments: [String]) -> (JobExitCode, String) {
            let output = OutputBox()
            let code = JobRunner.run(definition, arguments: ["--log-format", "json"] + arguments, environment: asJob,
                                     output: { output.append($0) })
            return (code, output.text)
        }
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        #expect(run(ImportExports.definition(), ["--reports-dir", folder.appendingPathComponent("reports").path]).0 == .succeeded)
        func reconcileEveryMonth() {
            for month in ["2026-08", "2026-09", "2026-10", "2026-11"] {
                for provider in ["google", "apple"] {
                    let (code, line) = run(Reconcile.definition(), ["--provider", provider, "--period", month, "--as-of", asOf])
                    #expect(code == .succeeded || line.contains("nothing staged"), "\(provider) \(month): \(line)")
                }
            }
        }
        reconcileEveryMonth()
        let before = try Self.openItems(db)
        #expect(before["google/missing_in_database", default: 0] > 0 && before["apple/missing_in_database", default: 0] > 0,
                "the world's deleted charges are listed: \(before)")
        let partials = reports.discrepancies.filter { $0.kind == .partialRefund }
        #expect(!partials.isEmpty, "the world refunds part of some Google charges")

        let (code, summary) = RequeryHarness.runJob(["--as-of", asOf, "--categories", "reconciliation", "--threads", "2"],
                                                    stores: harness.stores, environment: asJob)
        #expect(code == .succeeded || code == .thresholdBreached, "\(summary)")
        #expect(summary.contains("reconciliation.repaired"), "\(summary)")
        reconcileEveryMonth()
        let after = try Self.openItems(db)

        // Deleted charges: the store still knows each one; all that a subscription of ours points at are back.
        let deleted = reports.discrepancies.filter { $0.kind == .missingInDatabase }
        var notBack: [String] = []
        for charge in deleted {
            let back = try db.query("SELECT 1 FROM billing_transaction WHERE transaction_key = $1", [charge.transactionKey]).count
            if back == 0 { notBack.append("\(charge.provider) \(charge.transactionKey) \(charge.reportPeriod ?? "")") }
        }
        let reasons = try Self.reasons(db)
        #expect(notBack.count <= reasons["not_found", default: 0] + reasons["store_window", default: 0],
                "deleted charges not restored (\(notBack.count) of \(deleted.count)): \(notBack.prefix(5)); reasons \(reasons)")
        #expect(notBack.count * 5 < deleted.count, "most deleted charges are restored: \(notBack.count) of \(deleted.count)")
        #expect(after["google/missing_in_database", default: 0] < before["google/missing_in_database", default: 0])
        #expect(after["apple/missing_in_database", default: 0] < before["apple/missing_in_database", default: 0])

        // Partial refunds: written with the amount the store gave back, unless the store no longer answers for the order.
        for partial in partials {
            let orderId = try #require(partial.orderId)
            let stored = try db.query("""
                SELECT amount_micros FROM billing_transaction WHERE order_id = $1 AND event_type = 'REFUNDED'
                """, [orderId]).first?.decodeIfPresent(Int64.self, "amount_micros")
            let window = try db.query("""
                SELECT 1 FROM reconciliation_repair p JOIN reconciliation_item i ON i.run_id = p.run_id AND i.line = p.line
                WHERE i.grain_key = $1 AND p.outcome = 'store_window'
                """, [orderId]).count
            #expect(stored == partial.reportMicros || window > 0, "order \(orderId): \(stored.map(String.init) ?? "nil") vs \(partial.reportMicros ?? 0)")
        }
        #expect(after["google/refund_not_reflected", default: 0] < before["google/refund_not_reflected", default: 0])
        let corrected = try db.query("""
            SELECT 1 FROM reconciliation_repair WHERE outcome = 'repaired' AND detail LIKE '%1 refund amounts corrected%'
            """).count
        #expect(corrected > 0, "a partial refund's item is recorded as repaired")

        // What is still listed keeps a reason: the last repair's word on the same order or cell.
        let unexplained = try db.query("""
            SELECT r.provider || ' ' || r.period || ' ' || i.category || ' ' || i.grain_key AS item
            FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
            WHERE r.superseded_by IS NULL AND NOT i.prior_period_adjustment
              AND (i.category IN ('missing_in_database', 'refund_not_reflected') OR (i.category = 'amount_mismatch' AND i.database_units > 0))
              AND NOT EXISTS (SELECT 1 FROM reconciliation_run o JOIN reconciliation_item oi ON oi.run_id = o.id
                              JOIN reconciliation_repair p ON p.run_id = oi.run_id AND p.line = oi.line
                              WHERE o.provider = r.provider AND o.period = r.period AND oi.grain_key = i.grain_key
                                AND oi.side = i.side AND p.outcome IN ('not_found', 'store_window'))
            """).rows.map { try $0.decode(String.self, "item") }
        #expect(unexplained.isEmpty, "items still listed without a reason: \(unexplained.prefix(5))")
    }

    /// Open items of the current runs by provider/category (the three categories the loop acts on).
    static func openItems(_ db: PostgresConnection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try db.query("""
            SELECT r.provider || '/' || i.category AS key, count(*)::int AS n
            FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
            WHERE r.superseded_by IS NULL AND NOT i.prior_period_adjustment
              AND (i.category IN ('missing_in_database', 'refund_not_reflected') OR (i.category = 'amount_mismatch' AND i.database_units > 0))
            GROUP BY 1
            """).rows {
            counts[try row.decode(String.self, "key")] = try row.decode(Int.self, "n")
        }
        return counts
    }

    /// The repair's outcomes by name.
    static func reasons(_ db: PostgresConnection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try db.query("SELECT outcome, count(*)::int AS n FROM reconciliation_repair GROUP BY 1").rows {
            counts[try row.decode(String.self, "outcome")] = try row.decode(Int.self, "n")
        }
        return counts
    }
}

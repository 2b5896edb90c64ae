import Crypto
import Foundation
import JobKit
import Postgres
@testable import Reconciliation
import StoreExports
import Testing

/// The one-pass reading of staged earnings (one binary COPY sorted by order ID, each order categorised as it
/// completes) gives the same items item by item and through a sink; and the job stores matched orders summed. (That the
/// items are the ones the row-by-row reading gave is pinned by `GoogleStagedReconcileTests` and
/// `GoogleEstimatedSalesReconcileTests`.)
@Suite struct CompactEngineReconcileTests {
    /// The month's items, gathered one by one.
    static func items(_ database: PostgresConnection, _ period: ReconciliationPeriod, knownAt: Date) throws -> [ReconciliationItem] {
        try Reconciler(database: database).reconcile(period, knownAt: knownAt).items
    }

    @Test(arguments: [5, 13] as [UInt64]) func theCompactEngineGivesTheDictionaryItems(seed: UInt64) throws {
        let harness = try ReconcileHarness("compact_\(seed)", seed: seed, subscriptions: 300)
        try harness.importReports()
        let months = try harness.database.query("SELECT DISTINCT period FROM report_file WHERE kind = 'googleEarnings' ORDER BY period")
            .rows.map { try $0.decode(String.self, "period") }
        #expect(months.count >= 2)
        let knownAt = Date()
        var compared = 0
        for month in months {
            let period = try #require(ReconciliationPeriod(.google, month))
            let compact = try Reconciler(database: harness.database).reconcile(period, knownAt: knownAt)
            let expected = compact.items
            #expect(!expected.isEmpty)
            #expect(compact.files.allSatisfy { $0.id > 0 } && compact.files.contains { $0.kind == "googleEarnings" && $0.period == month })
            // Into a sink (the job's way): matched units written without items, the same bytes, totals and rows.
            let sink = try ReconciliationItemSink(csvPath: nil)
            _ = try Reconciler(database: harness.database)
                .googleStaged(period, knownAt: knownAt, only: nil, sink: sink, emit: sink.add)
            #expect(try sink.csv.finish() == SHA256Digest.hex(ReconciliationCSV.items(expected)), "\(period)")
            #expect(sink.csv.count == expected.count)
            #expect(sink.totals == ReconciliationTotals(expected))
            #expect(sink.stored.stored == StoredItems(expected).stored)
            compared += compact.items.filter { $0.category != .matched }.count
        }
        #expect(compared > 0, "the world injected no Google difference")
    }

    @Test func theJobStoresMatchedOrdersSummed() throws {
        let harness = try ReconcileHarness("compact_job", seed: 3, subscriptions: 120)
        try harness.importReports()
        let label = try #require(try harness.database.query(
            "SELECT min(period) AS p FROM report_file WHERE kind = 'googleEarnings'").first).decode(String.self, "p")
        let (code, counts, line) = try harness.run(Reconcile.definition(), ["--provider", "google", "--period", label,
                                                                            "--out", harness.out.path])
        #expect(code == .succeeded, "\(line)")
        #expect(counts["periods"] == 1 && (counts["google_matched"] ?? 0) > 0, "\(counts)")
        let csv = harness.out.appendingPathComponent("reconciliation_google_\(label).csv")
        #expect(FileManager.default.fileExists(atPath: csv.path))
        let stored = try #require(try harness.database.query(
            "SELECT report_files::text AS f FROM reconciliation_run WHERE provider = 'google' AND period = $1", [label]).first)
        #expect(try stored.decode(String.self, "f").contains("googleEarnings"))
        // Matched orders stored summed: fewer rows than items, every item counted once, one CSV line per item.
        let sums = try #require(try harness.database.query("""
            SELECT r.item_count::int8 AS items, count(*)::int8 AS rows, sum(i.unit_count)::int8 AS units,
                   count(*) FILTER (WHERE i.grain_key = '*')::int8 AS summed
            FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
            WHERE r.provider = 'google' AND r.period = $1 GROUP BY r.item_count
            """, [label]).first)
        let items = try sums.decode(Int64.self, "items")
        #expect(try sums.decode(Int64.self, "units") == items)
        #expect(try sums.decode(Int64.self, "rows") < items && sums.decode(Int64.self, "summed") > 0)
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").count
        #expect(Int64(lines - 1) == items)
    }
}

import Crypto
import Foundation
import JobKit
import Postgres
@testable import Reconciliation
import StoreExports
import Testing

/// `reconcile --file`: a Google month read straight from its earnings zip (streamed, with the database side on a
/// second connection) gives exactly the items of the same month reconciled from the staged files.
@Suite struct EarningsFileReconcileTests {
    @Test(arguments: [5, 13] as [UInt64]) func theZipGivesTheStagedItems(seed: UInt64) throws {
        let harness = try ReconcileHarness("file_\(seed)", seed: seed, subscriptions: 300)
        try harness.importReports()
        let earnings = harness.folder.appendingPathComponent("reports/google/earnings")
        let zips = try FileManager.default.contentsOfDirectory(atPath: earnings.path).filter { $0.hasSuffix(".zip") }.sorted()
        #expect(zips.count >= 2)
        let knownAt = Date()
        var compared = 0
        for zip in zips {
            // earnings_YYYYMM_<developer>-0.zip
            let stamp = zip.dropFirst("earnings_".count).prefix(6)
            let period = try #require(ReconciliationPeriod(.google, "\(stamp.prefix(4))-\(stamp.suffix(2))"))
            let staged = try Reconciler(database: harness.database).reconcile(period, knownAt: knownAt)
            let streamed = try Reconciler(database: harness.database)
                .reconcile(period, knownAt: knownAt, earningsZip: earnings.appendingPathComponent(zip).path, file: zip)
            #expect(!staged.items.isEmpty)
            #expect(streamed.items == staged.items, "\(period)")
            #expect(ReconciliationCSV.items(streamed.items) == ReconciliationCSV.items(staged.items))
            #expect(streamed.files.first?.kind == "googleEarningsFile" && streamed.files.first?.id == 0)
            var chunked: [ReconciliationItem] = []
            _ = try Reconciler(database: harness.database)
                .reconcile(period, knownAt: knownAt, earningsZip: earnings.appendingPathComponent(zip).path, file: zip, sink: nil,
                           itemChunk: 3) { chunked.append($0) }
            #expect(chunked == staged.items, "\(period), chunks of 3 orders")
            // Into a sink (the job's way): matched units written without items, the same bytes, totals and rows,
            // whether the orders are written as one chunk or as many on two threads.
            for chunk in [1, 3, GoogleCategorizer.itemChunk] {
                let sink = try ReconciliationItemSink(csvPath: nil)
                _ = try Reconciler(database: harness.database)
                    .reconcile(period, knownAt: knownAt, earningsZip: earnings.appendingPathComponent(zip).path, file: zip, sink: sink,
                               itemChunk: chunk, emit: sink.add)
                #expect(try sink.csv.finish() == SHA256Digest.hex(ReconciliationCSV.items(staged.items)), "\(period) chunk \(chunk)")
                #expect(sink.csv.count == staged.items.count)
                #expect(sink.totals == ReconciliationTotals(staged.items))
                #expect(sink.stored.stored == StoredItems(staged.items).stored)
            }
            compared += streamed.items.filter { $0.category != .matched }.count
        }
        #expect(compared > 0, "the world injected no Google difference")
    }

    @Test func theJobTakesTheFileAndRefusesItWithoutAPeriod() throws {
        let harness = try ReconcileHarness("file_job", seed: 3, subscriptions: 120)
        let earnings = harness.folder.appendingPathComponent("reports/google/earnings")
        let zip = try #require(try FileManager.default.contentsOfDirectory(atPath: earnings.path).filter { $0.hasSuffix(".zip") }.sorted().first)
        let stamp = zip.dropFirst("earnings_".count).prefix(6)
        let label = "\(stamp.prefix(4))-\(stamp.suffix(2))"
        let path = earnings.appendingPathComponent(zip).path
        let (code, counts, line) = try harness.run(Reconcile.definition(), ["--provider", "google", "--period", label, "--file", path,
                                                                            "--out", harness.out.path])
        #expect(code == .succeeded, "\(line)")
        #expect(counts["periods"] == 1 && (counts["google_matched"] ?? 0) > 0, "\(counts)")
        let csv = harness.out.appendingPathComponent("reconciliation_google_\(label).csv")
        #expect(FileManager.default.fileExists(atPath: csv.path))
        let stored = try #require(try harness.database.query(
            "SELECT report_files::text AS f FROM reconciliation_run WHERE provider = 'google' AND period = $1", [label]).first)
        #expect(try stored.decode(String.self, "f").contains("googleEarningsFile"))
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
        let (usage, _, _) = try harness.run(Reconcile.definition(), ["--provider", "google", "--file", path])
        #expect(usage == .usageOrConfiguration)
    }
}

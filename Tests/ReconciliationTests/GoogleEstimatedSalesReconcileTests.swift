import Crypto
import Foundation
import JobKit
@testable import Reconciliation
import Testing

/// A Google month reconciled from its estimated-sales file (its earnings file not staged) and months whose neighbours
/// are estimated sales only: the items CSV and totals CSV are the ones the row-by-row reading (`GoogleSource`, read
/// unit by unit into dictionaries) wrote before every side was read through the compact engine's binary COPY.
@Suite struct GoogleEstimatedSalesReconcileTests {
    /// Per seed, per month: SHA-256 of the items CSV and of the totals CSV, as the row-by-row reading wrote them,
    /// with the earnings files of every second month left out (those months fall back to their estimated sales). The
    /// months that keep their earnings give the digests `GoogleStagedReconcileTests` pins.
    static let expected: [UInt64: [String: String]] = [
        3: ["2026-08": "a0c5b225af41e3bbece2c552d37f6a4258f0cfa0147092666a47150e5ef472b8 4d1632428f631b535c1b081d3780c7e10e063d4e407307f380d5ef975a916626",
            "2026-09": "f87cc5bb60f2164b0d02f201dfb49da8e09a548a71c3df4526a7cc0f5d37814c d1a639bc38cb69e80d1e31dcc09e2821816c93ad5b805752bfaf6ede6e70c3de",
            "2026-10": "d1458cb19731dc855626d788a4107c99a63417af40ad2111bd55f8280d7fc27f e5b4e9de253777965cb138f47fd7edf132ac645dd59a3c964aaf1a96a9768f36",
            "2026-11": "2be9d4b767e5bb2f3b962a15837f244ed79bb0ebd8001dfb596ee25fe3ccbe71 4d54e3bb3b0781ebbe76c9edd1037bfefe60bad109e0358a63a7f925274c6a4c"],
        7: ["2026-08": "387c1b934de5ae8f7a6166456e16803ddc16e013eb3914074db2adfe568501a9 27bc12cd05fbd86a4b1f28aed22c6e669a5b3ed99e424e4e3e26541bc9b0f82e",
            "2026-09": "b445910eb9fe959931d056abf9e7347dc0c35a69831f486d1b5a0320238c7b24 2111ff6d43fe72b4ee5b4dd2d81b7306170b3ecb1b7bbfa85a6d8066b25449c8",
            "2026-10": "a9ac5bcce7243a2ec1ca83410c6d2984dc214f10a45beacd9c92bc6fc5418024 1d2060dd46d404fc71b49c50e90226af83d68e0265f6233257a56a7a80ba388d",
            "2026-11": "f96dba4ec8d8ac47dda593c0d4f26b931a05535d59395c9dfb6262991f025959 a80c50dc875bbacec428158163d176aaa7e47093ff2c0cb554ef4d8ecae4738a"],
    ]

    @Test(arguments: [3, 7] as [UInt64]) func estimatedSalesMonthsWriteWhatTheRowByRowReadingWrote(seed: UInt64) throws {
        let harness = try ReconcileHarness("google_sales_\(seed)", seed: seed, subscriptions: 300)
        try harness.importReports()
        let months = try harness.database.query(
            "SELECT DISTINCT period FROM report_file WHERE kind IN ('googleEarnings', 'googleEstimatedSales') ORDER BY period")
            .rows.map { try $0.decode(String.self, "period") }
        #expect(months.count >= 3)
        let sales = try harness.scalar("SELECT count(*)::int8 AS n FROM google_estimated_sales_row")
        #expect(sales > 0, "the world wrote no estimated sales")
        // Every second month loses its earnings files: it is reconciled from its estimated sales, and is the
        // estimated-sales neighbour of the months around it.
        for (index, month) in months.enumerated() where index % 2 == 1 {
            try harness.database.execute("DELETE FROM report_file WHERE kind = 'googleEarnings' AND period = $1", [month])
        }
        var digests: [String: String] = [:]
        for month in months {
            let out = harness.folder.appendingPathComponent("sales-out-\(month)")
            let (code, _, line) = try harness.run(Reconcile.definition(), ["--provider", "google", "--period", month, "--out", out.path])
            #expect(code == .succeeded || code == .thresholdBreached, "\(line)")
            let items = try Data(contentsOf: out.appendingPathComponent("reconciliation_google_\(month).csv"))
            let totals = try Data(contentsOf: out.appendingPathComponent("reconciliation_google_\(month)_totals.csv"))
            digests[month] = SHA256Digest.hex([UInt8](items)) + " " + SHA256Digest.hex([UInt8](totals))
        }
        #expect(digests == Self.expected[seed], "seed \(seed): \(digests)")
    }
}

import Crypto
import Foundation
import JobKit
@testable import Reconciliation
import Testing

/// `reconcile --provider google --period M` on staged earnings: every month of generated worlds at three seeds
/// gives the items CSV and totals CSV it gave before the staged rows were read into the compact engine (digests
/// computed with the row-by-row reading of the staged rows, which the compact reading replaced).
@Suite struct GoogleStagedReconcileTests {
    /// Per seed, per month: SHA-256 of the items CSV and of the totals CSV, as the row-by-row reading wrote them.
    static let expected: [UInt64: [String: String]] = [
        3: ["2026-08": "3ad551960f07e47f91ba3d60f70589b2179c308a08a6041071d9d25659836b3f 4d1632428f631b535c1b081d3780c7e10e063d4e407307f380d5ef975a916626",
            "2026-09": "226df74f7ef69833c02454b86d2d855a4c1e69eb9a6488aeaf5a70a97d199e4f 245d763890d61b8c044efd153a95d6106054be63fc0b7698924500df6f71f471",
            "2026-10": "12412804e284d1873810c79aef75c95bee3ab2f99aed33ee4790cff1367d8cc4 e5b4e9de253777965cb138f47fd7edf132ac645dd59a3c964aaf1a96a9768f36",
            "2026-11": "17744b1bf79ce287422c3b2bdf53b7016d5e0556719c5a2a9633adfd429a8cb8 fdf4d2d83d7ff953d5a5b634c672fbf96b93fa273565adc9b4df664e60e5633f"],
        7: ["2026-08": "9a375e43b5c177bc74ae87715640f99afbd7c61420d7c54473dcc9aa807c1229 27bc12cd05fbd86a4b1f28aed22c6e669a5b3ed99e424e4e3e26541bc9b0f82e",
            "2026-09": "b0421707b63a1d49fe084929619f8dc4e3239706f3c3145689093cb9572c6330 232656fd9a41bf5830bfa5063c6f1265a0d63bd1ac0b8e56928bf10af5212ea1",
            "2026-10": "291d77f5c26c692580230c45b054a51ce67cf60d83fd76b13d78a84dbe06be15 1d2060dd46d404fc71b49c50e90226af83d68e0265f6233257a56a7a80ba388d",
            "2026-11": "6cb56eff474a24e5717f5c433dbed216ac9c168d1a0c871f7049c4e80e87bbdb 4da8c93e518aa7db271ca177d5733a1ee829f6d7c8c416b6966319fc0adfed82"],
        11: ["2026-09": "4f8a0d537d27faebf67ac2dc1a2ed30d86f8d8a2cb79cb3242fcea51681e7f8b 83d8e75307b9ce0b7e1725a88cef38058729289aa28a4eaaf8206267c2313136",
             "2026-10": "20fd7ebd74fb4909c4bf616050658e3da77a26c621eb87a530210453008ac3f8 d3f0a3874fc94571451d67a417a5201d2e50c83603c0695921cb6fc14a70bae4",
             "2026-11": "b9c6e95cbaeae1fb0e366879b56ffe03b59b5e456cca68bc7776e0422d5f5a32 f81ca426824cbb88f7df64c805173ab4fe32b30f2ee616ee5db11550092a5a5f"],
    ]

    @Test(arguments: [3, 7, 11] as [UInt64]) func everyMonthWritesWhatTheRowByRowReadingWrote(seed: UInt64) throws {
        let harness = try ReconcileHarness("google_staged_\(seed)", seed: seed, subscriptions: 300)
        try harness.importReports()
        let months = try harness.database.query(
            "SELECT DISTINCT period FROM report_file WHERE kind = 'googleEarnings' ORDER BY period").rows.map { try $0.decode(String.self, "period") }
        #expect(months.count >= 2)
        var digests: [String: String] = [:]
        for month in months {
            let out = harness.folder.appendingPathComponent("out-\(month)")
            let (code, _, line) = try harness.run(Reconcile.definition(), ["--provider", "google", "--period", month, "--out", out.path])
            #expect(code == .succeeded || code == .thresholdBreached, "\(line)")
            let items = try Data(contentsOf: out.appendingPathComponent("reconciliation_google_\(month).csv"))
            let totals = try Data(contentsOf: out.appendingPathComponent("reconciliation_google_\(month)_totals.csv"))
            digests[month] = SHA256Digest.hex([UInt8](items)) + " " + SHA256Digest.hex([UInt8](totals))
        }
        #expect(digests == Self.expected[seed], "seed \(seed): \(digests)")
    }
}

import Crypto
import Foundation
import JobKit
@testable import Reconciliation
import Testing

/// `reconcile --provider google --period M` on staged earnings: every month of generated worlds at three seeds
/// gives the items CSV and totals CSV it gave before the staged rows were read into the compact engine (digests
/// computed with the row-by-row reading of the staged rows, which the compact reading replaced). The items digests
/// were taken again when the stored keys' purchase tokens came to be masked in the detail column (issue 27); that
/// change left every totals digest as it was.
@Suite struct GoogleStagedReconcileTests {
    /// Per seed, per month: SHA-256 of the items CSV and of the totals CSV, as the row-by-row reading wrote them.
    static let expected: [UInt64: [String: String]] = [
        3: ["2026-08": "a0c5b225af41e3bbece2c552d37f6a4258f0cfa0147092666a47150e5ef472b8 4d1632428f631b535c1b081d3780c7e10e063d4e407307f380d5ef975a916626",
            "2026-09": "64e03f845844e1f0543dbc3cc04bc2cc16e14024ea25598f8e4f29e78776209e 245d763890d61b8c044efd153a95d6106054be63fc0b7698924500df6f71f471",
            "2026-10": "d1458cb19731dc855626d788a4107c99a63417af40ad2111bd55f8280d7fc27f e5b4e9de253777965cb138f47fd7edf132ac645dd59a3c964aaf1a96a9768f36",
            "2026-11": "e9b20b19a1ea3a0cf979431f394080cde14ae7887d64050333220ff25097a0c6 fdf4d2d83d7ff953d5a5b634c672fbf96b93fa273565adc9b4df664e60e5633f"],
        7: ["2026-08": "387c1b934de5ae8f7a6166456e16803ddc16e013eb3914074db2adfe568501a9 27bc12cd05fbd86a4b1f28aed22c6e669a5b3ed99e424e4e3e26541bc9b0f82e",
            "2026-09": "80c2e18ee1762b870023462b9c101ff2af488bb7e3366268be7f4271fa14b391 232656fd9a41bf5830bfa5063c6f1265a0d63bd1ac0b8e56928bf10af5212ea1",
            "2026-10": "a9ac5bcce7243a2ec1ca83410c6d2984dc214f10a45beacd9c92bc6fc5418024 1d2060dd46d404fc71b49c50e90226af83d68e0265f6233257a56a7a80ba388d",
            "2026-11": "4435d2c0e61058f8d92f5c629cf5b5f5807feef8165be9ea41ae37ee0f5529fa 4da8c93e518aa7db271ca177d5733a1ee829f6d7c8c416b6966319fc0adfed82"],
        11: ["2026-09": "989518d4fb9ff19f58f0d42d2dadc66663137ec0a8f38c8cc4330fd66d4b6a35 83d8e75307b9ce0b7e1725a88cef38058729289aa28a4eaaf8206267c2313136",
             "2026-10": "d8ec399029a43addbf3dbf58202d7696d63f82a4d1477a1d33e10eac2b679800 d3f0a3874fc94571451d67a417a5201d2e50c83603c0695921cb6fc14a70bae4",
             "2026-11": "d6375a7065fc58010a8fd9934a367f176bf250e0a6661ec4e7f540f09405ce0b f81ca426824cbb88f7df64c805173ab4fe32b30f2ee616ee5db11550092a5a5f"],
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

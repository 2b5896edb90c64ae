import Foundation
import JobKit
import Testing
import WorldGen

/// The world generator's `reports/` folder through `import-exports`: every file it writes is shaped like the
/// stores' own and imports whole (financial, payments summary and subscriber reports; earnings and sales zips),
/// with exchange rates from both Apple's payments summaries and Google's earnings.
@Suite(.serialized) struct WorldReportsImportTests {
    @Test func aGeneratedWorldsReportsImport() throws {
        let harness = try ImportHarness("world")
        let world = try World.generate(WorldOptions(seed: 11, subscriptions: 600, months: 3))
        _ = try StoreReports.write(world, to: harness.folder)
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_ignored"] == 0, "\(line)")
        #expect(counts["files_rejected"] == nil, "\(line)")
        for kind in ["apple_financial", "apple_payments", "apple_subscriber", "google_earnings", "google_estimated_sales"] {
            #expect((counts["\(kind)_imported"] ?? 0) > 0, "\(kind): \(line)")
        }
        #expect((counts["fx_rates_from_payments"] ?? 0) > 0, "\(line)")
        #expect((counts["fx_rates_from_earnings"] ?? 0) > 0, "\(line)")
        let sources = try harness.database.query("SELECT source, count(*)::int AS n FROM fx_rate GROUP BY source").rows
            .map { (try $0.decode(String.self, "source"), try $0.decode(Int.self, "n")) }
        // Apple's payments summaries come first (by path) and hold the same months and pairs: their rates stay.
        #expect(Set(sources.map(\.0)) == ["apple_payments"], "\(sources)")
        let google = try ImportHarness("world_google")
        let (googleCode, googleCounts, googleLine) = try google.run(["--reports-dir", harness.folder.appendingPathComponent("reports/google").path],
                                                                    folder: false)
        #expect(googleCode == .succeeded && (googleCounts["fx_rates_from_earnings"] ?? 0) > 0, "\(googleLine)")
        let googleRates = try google.database.query("SELECT DISTINCT source FROM fx_rate").rows.map { try $0.decode(String.self, "source") }
        #expect(googleRates == ["google_earnings"])
        let (again, repeated, _) = try harness.run()
        #expect(again == .succeeded && repeated["files_imported"] == nil && (repeated["files_unchanged"] ?? 0) > 0)
    }
}

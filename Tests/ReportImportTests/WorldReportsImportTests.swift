import Foundation
import JobKit
import Testing
import WorldGen

/// The world generator's `reports/` folder through `import-exports`. The generator's files still differ from
/// real ones (issue 14 lists the differences), so the full expectation is a known issue; it turns into a
/// failure ("known issue was not recorded") once the generator writes real-shaped files.
@Suite(.serialized) struct WorldReportsImportTests {
    @Test func aGeneratedWorldsReportsImport() throws {
        let harness = try ImportHarness("world")
        let world = try World.generate(WorldOptions(seed: 11, subscriptions: 600, months: 3))
        _ = try StoreReports.write(world, to: harness.folder)
        let (code, counts, line) = try harness.run()
        // What already works: Google's estimated sales zips import whole.
        #expect((counts["google_estimated_sales_imported"] ?? 0) > 0, "\(line)")
        #expect(counts["google_estimated_sales_rejected"] == nil, "\(line)")
        withKnownIssue("""
            the world's reports are not real-shaped yet: Apple financial files are named FINANCIAL_<region>_<reportDate>.txt \
            (ignored; real: <vendor>_<MMYY>_<region>.txt) and their Total_Units nets returns; Subscriber files are named \
            SUBSCRIBER_DETAILED_DAILY_1_3_<date>.txt (ignored; real: Subscriber_<vendor>_<YYYYMMDD>.txt); Google earnings \
            write Refund Type 'Full refund' (real: Full / Partial)
            """) {
            #expect(code == .succeeded, "\(line)")
            #expect(counts["files_ignored"] == 0, "\(line)")
            #expect(counts["files_rejected"] == nil, "\(line)")
            #expect((counts["apple_financial_imported"] ?? 0) > 0, "\(line)")
        }
    }
}

import Foundation
import Reporting
import Testing

/// build-reports fills the movement block that `mrr_movements.sql` and `mrr_bridge.sql` share once per run and runs
/// both files against that table; a file run by hand computes its own block. The two ways must give the same bytes.
@Suite(.serialized) struct SharedMovementTests {
    @Test func theOnceFilledMovementTableGivesWhatEachFileComputesItself() throws {
        let harness = try ReportingHarness("shared_movement", subscriptions: 400, months: 8)
        let shared = try harness.sqlFolder("shared")
        // The same files with the block's markers renamed: no movement block is found, so each file computes its own.
        var own: [String: String] = [:]
        for report in ["mrr_movements", "mrr_bridge"] {
            let text = try String(contentsOf: ReportingHarness.reportsFolder.appendingPathComponent(report + ".sql"), encoding: .utf8)
            #expect(text.contains("-- BEGIN movement") && text.contains("-- END movement"), "\(report) marks its block")
            own[report + ".sql"] = text.replacingOccurrences(of: "-- BEGIN movement", with: "-- (unmarked) movement")
        }
        let unshared = try harness.sqlFolder("own", copying: ReportingHarness.shippedReports.filter { !["mrr_movements", "mrr_bridge"].contains($0) },
                                             extra: own)
        let (sharedCode, sharedSummary) = try harness.run(["--sql-dir", shared.path, "--out", harness.folder("a").path, "--format", "csv", "--raw-ids"])
        let (ownCode, _) = try harness.run(["--sql-dir", unshared.path, "--out", harness.folder("b").path, "--format", "csv", "--raw-ids"])
        #expect(sharedCode == .succeeded && ownCode == .succeeded)
        let a = try ReportingHarness.files(harness.folder("a")), b = try ReportingHarness.files(harness.folder("b"))
        #expect(a.keys.sorted() == b.keys.sorted())
        for name in a.keys.sorted() { #expect(a[name] == b[name], "\(name)") }
        let movements = try #require(a["mrr_movements.csv"])
        #expect(movements.filter { $0 == 10 }.count > 100, "the world has movements to compare")
        #expect((sharedSummary["counts"] as? [String: Int])?["rows_mrr_movements"] ?? 0 > 100)
    }

    @Test func theBlockIsFoundOnlyBetweenItsMarkerLines() {
        let sql = "WITH a AS (SELECT 1),\n-- BEGIN movement (shared)\nmovement AS (\n    SELECT 1\n),\n-- END movement\nSELECT 1\n"
        #expect(SharedReportTables.movementBlock(in: sql) == "-- BEGIN movement (shared)\nmovement AS (\n    SELECT 1\n),\n-- END movement\n")
        #expect(SharedReportTables.movementBlock(in: "SELECT 1 -- BEGIN movement\n-- END movement\n") == nil, "a marker must start its line")
        #expect(SharedReportTables.movementBlock(in: "-- BEGIN movement\nSELECT 1\n") == nil, "no end marker")
    }
}

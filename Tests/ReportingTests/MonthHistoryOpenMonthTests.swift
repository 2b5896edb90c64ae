import Foundation
import Postgres
@testable import Reporting
import Testing

/// A night computes the month history's row part of complete months only (migration 0072; Reports/README.md, "The open
/// month's history part"): the store never holds the as-of month's, and the first night of a new month computes the
/// month that was open when the store was written even when no change since reaches it.
@Suite(.serialized) struct MonthHistoryOpenMonthTests {
    @Test func theFirstNightOfAMonthComputesTheMonthTheStoreLeftOpen() throws {
        let harness = try ReportingHarness("month_history_open_month", seed: 29, subscriptions: 200, months: 5)
        let db = harness.database
        let sql = try harness.sqlFolder("sql")
        let month = ReportMonth(containing: try #require(PostgresTimestamp.parse(harness.asOf)))
        // The store as of the last instant of the month before, after its last history row: no change since reaches
        // that month, so the changes' first month is the as-of month, and only the store's as-of month says the month
        // before must be computed.
        let row = try db.query("""
            SELECT to_char(($1::timestamptz - interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   (SELECT max(effective_at) FROM billing_transaction WHERE effective_at < $1::timestamptz)
                       <= $1::timestamptz - interval '1 second'
            """, [month.startText]).textRows().first ?? []
        let previousEnd = try #require(row.first ?? nil)
        try #require(row.count == 2 && row[1] == "t", "the world has rows in the last second of the month before")
        let (stored, storedSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("stored").path,
                                                       "--as-of", previousEnd])
        #expect(stored == .succeeded, "\(storedSummary)")
        let open = try db.query("""
            SELECT count(*) FILTER (WHERE month >= $1::date), count(*) FROM report_stored_month_history WHERE basis = 'corrected'
            """, [month.advanced(by: -1).firstDayText]).textRows().first ?? []
        #expect(open.count == 2 && open[0] == "0" && open[1] != "0", "the store holds complete months only: \(open)")

        let (night, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("night").path])
        #expect(night == .succeeded, "\(summary)")
        let counts = summary["counts"] as? [String: Int]
        #expect((counts?["spans_reused"] ?? 0) > 0, "the night read the store: \(counts ?? [:])")
        try IncrementalSpansTests.expectStoredHistoryWhole(harness, asOf: harness.asOf, name: "first night of the month")
        let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("full").path, "--full"])
        #expect(full == .succeeded, "\(fullSummary)")
        let nightly = try ReportingHarness.files(harness.folder("night")), recomputed = try ReportingHarness.files(harness.folder("full"))
        #expect(Set(nightly.keys) == Set(recomputed.keys))
        for file in recomputed.keys.sorted() {
            #expect(nightly[file] == recomputed[file], "\(file) differs between the night and the full run")
        }
    }
}

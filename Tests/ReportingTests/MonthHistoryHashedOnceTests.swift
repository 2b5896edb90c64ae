import Foundation
import Postgres
import Testing

/// `report_month_history` hashing each history row once (migration 0050) returns the rows of its previous definition
/// (0043), which hashed each row twice, under both bases: the same months, counts and hash sums, so a month stored
/// before 0050 is reused after it (Reports/README.md, "Incremental runs").
@Suite(.serialized) struct MonthHistoryHashedOnceTests {
    @Test(arguments: ["corrected", "known"])
    func theHistoryPartIsThePreviousDefinitionsRows(basis: String) throws {
        let harness = try ReportingHarness("month_history_once_\(basis)", seed: 50, subscriptions: 250, months: 6)
        let database = harness.database
        // 0043's report_month_history as it was installed, as a temporary function.
        try harness.installEarlier("report_month_history", from: "0043_report_month_history_account.sql", as: "month_history_0043")
        // A test row and a row recorded after the as-of instant, so that the excluded part and the basis both count.
        try database.execute("""
            UPDATE billing_transaction SET is_test = true
            WHERE id = (SELECT id FROM billing_transaction ORDER BY effective_at, id LIMIT 1 OFFSET 40)
            """)
        try database.execute("""
            UPDATE billing_transaction SET recorded_at = $1::timestamptz + interval '1 day'
            WHERE id = (SELECT id FROM billing_transaction WHERE effective_at <= $1::timestamptz ORDER BY effective_at DESC, id LIMIT 1)
            """, [harness.asOf])
        let columns = "month, row_count, hash_sum, excluded_count, excluded_hash_sum"
        let before = try database.query("SELECT \(columns) FROM pg_temp.month_history_0043($1::timestamptz, $2) ORDER BY month",
                                        [harness.asOf, basis]).textRows()
        let now = try database.query("SELECT \(columns) FROM report_month_history($1::timestamptz, $2) ORDER BY month",
                                     [harness.asOf, basis]).textRows()
        #expect(before.count > 3, "the world has several months")
        #expect(before.contains { $0[3] != "0" }, "a month counts an excluded subscription")
        #expect(now == before)
    }
}

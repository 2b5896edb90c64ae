import Foundation
import Postgres
import Testing

/// The month digest with its history part given as a value (migration 0042: build-reports computes
/// `report_month_history` in its second session and hands its rows over as jsonb) is the same text as the digest of
/// migration 0040, which computed it in place: a month stored before 0042 is reused after it, and a number passed
/// through jsonb is not reformatted (Reports/README.md, "Incremental runs").
@Suite(.serialized) struct MonthDigestGivenHistoryTests {
    @Test func theDigestGivenTheHistoryEqualsTheOneComputedInPlace() throws {
        let harness = try ReportingHarness("digest_given_history", seed: 43, subscriptions: 250, months: 6)
        let database = harness.database
        // 0040's report_month_inputs as it was installed, as a temporary function.
        try harness.installEarlier("report_month_inputs", from: "0040_report_month_inputs_history.sql", as: "month_inputs_0040")
        let parameters: [any PostgresEncodable] = [harness.asOf, "2020-01-01T00:00:00Z", "2100-01-01T00:00:00Z"]
        func digests(_ sql: String) throws -> [[String?]] { try database.query(sql, parameters).textRows() }
        let before = try digests("SELECT month, inputs FROM pg_temp.month_inputs_0040($1::timestamptz, $2::timestamptz, $3::timestamptz, 'corrected') ORDER BY month")
        let given = try digests("""
            SELECT month, inputs FROM report_month_inputs($1::timestamptz, $2::timestamptz, $3::timestamptz, 'corrected',
                (SELECT jsonb_agg(h) FROM report_month_history($1::timestamptz, 'corrected') h)) ORDER BY month
            """)
        let computed = try digests("SELECT month, inputs FROM report_month_inputs($1::timestamptz, $2::timestamptz, $3::timestamptz, 'corrected') ORDER BY month")
        #expect(before.count > 3, "the world has several months")
        #expect(given == before)
        #expect(computed == before)
        // The history part counts: with none given, the last month's digest (every read row before it) differs.
        let none = try digests("SELECT month, inputs FROM report_month_inputs($1::timestamptz, $2::timestamptz, $3::timestamptz, 'corrected', '[]') ORDER BY month")
        #expect(none.count == before.count && none.last?[1] != before.last?[1])
    }
}

import Foundation
import Postgres
import Testing

/// The history part of the month digest (`report_month_history`) names a row's provider as `kpis` and
/// `plan_change_mix` do: from its subscription (`subscription.provider`), not from the row's own column, which no
/// constraint makes equal (migration 0041; Reports/README.md, "Incremental runs"). A subscription whose provider
/// changes moves the digest of every month it has a read row in, and only those; hashed from the row's column (0040),
/// nothing moved and those reports would have reused stale months.
@Suite(.serialized) struct MonthDigestProviderTests {
    @Test func aSubscriptionsProviderChangeMovesTheMonthsOfItsReadRows() throws {
        let harness = try ReportingHarness("digest_provider", seed: 41, subscriptions: 200, months: 6)
        let database = harness.database
        func digest() throws -> [String: String] { try harness.monthHistoryDigest() }
        let before = try digest()
        // A counted subscription with read rows in more than one month moves to another provider.
        let months = try database.query("""
            WITH chosen AS (
                SELECT b.subscription_id FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                WHERE NOT s.is_test_purchase AND NOT s.is_sandbox AND b.effective_at <= $1::timestamptz
                GROUP BY b.subscription_id
                HAVING NOT bool_or(b.is_test)
                   AND count(DISTINCT date_trunc('month', b.effective_at AT TIME ZONE 'UTC')) > 1
                ORDER BY b.subscription_id LIMIT 1),
            moved AS (
                UPDATE subscription s SET provider = CASE WHEN s.provider = 'WEB' THEN 'APPLE' ELSE 'WEB' END::billing_provider
                FROM chosen c WHERE s.id = c.subscription_id RETURNING s.id)
            SELECT DISTINCT to_char(b.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month
            FROM billing_transaction b JOIN moved m ON m.id = b.subscription_id
            WHERE b.effective_at <= $1::timestamptz
            ORDER BY 1
            """, [harness.asOf]).textRows().compactMap { $0[0] }
        #expect(months.count > 1, "a subscription with read rows in several months was chosen")
        let after = try digest()
        #expect(Set(before.keys) == Set(after.keys))
        let moved = after.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(moved == months, "the provider change moves the months of the subscription's read rows (\(months)), not \(moved)")
    }
}

extension ReportingHarness {
    /// `report_month_history` as of the harness's instant under `corrected`: per month (`YYYY-MM`), its row count and
    /// hash sum and its excluded count and hash sum, joined by colons.
    func monthHistoryDigest() throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try database.query("""
            SELECT to_char(month, 'YYYY-MM'), row_count || ':' || hash_sum || ':' || excluded_count || ':' || excluded_hash_sum
            FROM report_month_history($1::timestamptz, 'corrected')
            """, [asOf]).textRows() {
            if let month = row[0], let value = row[1] { out[month] = value }
        }
        return out
    }
}

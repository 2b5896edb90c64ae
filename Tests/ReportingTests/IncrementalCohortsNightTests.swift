import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// `cohorts` in a night (migration 0060; Reports/README.md, "Cohorts in a night"): the run computes the as-of month
/// alone and adds it to the reused cells of the month before, looking up the start month of each customer the month
/// touches. Each change below is made in the as-of month only (every earlier month stays reused), moves the file, and
/// the night's file is byte-identical to `--full`'s, which reads the whole history.
@Suite(.serialized) struct IncrementalCohortsNightTests {
    /// A change (SQL given the as-of instant, inserting what it names) and what it exercises.
    struct Change {
        let name: String
        let sql: String
    }

    /// A subscription that counts: no test or sandbox purchase, no test row.
    static let counted = """
        NOT s.is_test_purchase AND NOT s.is_sandbox
          AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
        """

    /// The first day of the as-of month, as a timestamptz, of `$1`.
    static let monthStart = "(date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')"

    /// An account paying in one provider since before the as-of month is charged by it, in the as-of month, in a
    /// currency it never paid in before: a new customer of the as-of month's cohort (a customer is an account, a
    /// provider and a currency), although the account started long before.
    static let newCurrency = Change(name: "new-currency", sql: """
        WITH payer AS (
            SELECT s.id, s.provider, b.currency_code, b.product_id, b.plan_id
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'PURCHASED' AND b.amount_micros > 0 AND s.billing_account_id IS NOT NULL AND \(counted)
              AND b.effective_at < \(monthStart) - interval '2 months'
            ORDER BY b.effective_at, b.transaction_key LIMIT 1),
        other AS (
            SELECT b.currency_code FROM billing_transaction b, payer p
            WHERE b.amount_micros > 0 AND b.currency_code <> p.currency_code
            GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)
        INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                         currency_code, product_id, plan_id, billing_period, period_start_at, period_end_at,
                                         raw_payload)
        SELECT p.id, p.provider, 'RENEWED', 'cohort-night:new-currency', $1::timestamptz - interval '1 day', 7990000,
               o.currency_code, p.product_id, p.plan_id, 'P1M', $1::timestamptz - interval '1 day',
               $1::timestamptz - interval '1 day' + interval '1 month', '{}'::jsonb
        FROM payer p, other o
        """)

    /// An account's first counting subscription of a provider, bought in the as-of month, beside an excluded one (a
    /// sandbox purchase, or one with a test row: `kind`) of the same provider and currency charged months before (made
    /// before the first run by `siblingSetUp`): the excluded purchase is no customer's, so the account starts in the
    /// as-of month.
    static func sibling(_ kind: String) -> Change {
        Change(name: kind + "-sibling", sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, product_id, plan_id, billing_period, period_start_at, period_end_at,
                                             raw_payload)
            SELECT u.id, u.provider, 'PURCHASED', 'cohort-night:\(kind)-sibling', $1::timestamptz - interval '2 days', b.amount_micros,
                   b.currency_code, b.product_id, b.plan_id, 'P1M', $1::timestamptz - interval '2 days',
                   $1::timestamptz - interval '2 days' + interval '1 month', '{}'::jsonb
            FROM billing_transaction b JOIN subscription t ON t.id = b.subscription_id
            JOIN subscription u ON u.billing_account_id = t.billing_account_id AND u.provider = t.provider AND u.id <> t.id
            WHERE b.transaction_key = 'cohort-night:\(kind)'
            """)
    }

    /// Before the first run, for `sibling(kind)`: in the provider an account (the `pick`-th with one provider only) has
    /// none of, an excluded subscription charged two months before the as-of month (a sandbox purchase, or a test row:
    /// `kind`), and the counting subscription of the same account and provider that `sibling` charges (no rows yet).
    static func siblingSetUp(_ kind: String, pick: Int) -> String {
        let sandbox = kind == "sandbox"
        return """
            WITH account AS (
                SELECT s.billing_account_id AS id, CASE WHEN min(s.provider::text) = 'APPLE' THEN 'GOOGLE' ELSE 'APPLE' END::billing_provider AS provider
                FROM subscription s WHERE s.billing_account_id IS NOT NULL
                GROUP BY 1 HAVING count(DISTINCT s.provider) = 1 ORDER BY 1 OFFSET \(pick) LIMIT 1),
            charge AS (
                SELECT b.currency_code, b.amount_micros, b.product_id, b.plan_id, s.plan_id AS subscription_plan
                FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id, account a
                WHERE s.provider = a.provider AND b.event_type = 'PURCHASED' AND b.amount_micros > 0
                ORDER BY b.effective_at, b.transaction_key LIMIT 1),
            made AS (
                INSERT INTO subscription (provider, billing_account_id, plan_id, status, is_sandbox)
                SELECT a.provider, a.id, c.subscription_plan, x.status, x.excluded AND \(sandbox)
                FROM account a, charge c, (VALUES ('EXPIRED'::subscription_status, true), ('ACTIVE', false)) x(status, excluded)
                RETURNING id, provider, status)
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, product_id, plan_id, billing_period, period_start_at, period_end_at,
                                             is_test, raw_payload)
            SELECT m.id, m.provider, 'PURCHASED', 'cohort-night:\(kind)', \(monthStart) - interval '2 months' + interval '3 days',
                   c.amount_micros, c.currency_code, c.product_id, c.plan_id, 'P1M',
                   \(monthStart) - interval '2 months' + interval '3 days', \(monthStart) - interval '1 month' + interval '3 days',
                   \(!sandbox), '{}'::jsonb
            FROM made m, charge c WHERE m.status = 'EXPIRED'
            """
    }

    /// Runs a night (`arguments`, into folder `label`) and then `--full` (into `label-full`), expecting both to succeed
    /// and the night to have reused every month through `reusedThrough`; the night's summary and both `cohorts.csv`.
    static func nightAndFull(_ harness: ReportingHarness, _ arguments: [String], label: String,
                             reusedThrough: String) throws -> (summary: [String: Any], night: [UInt8]?, full: [UInt8]?) {
        let (night, summary) = try harness.run(arguments + ["--out", harness.folder(label).path])
        #expect(night == .succeeded, "\(summary)")
        #expect((summary["reused_cohorts"] as? String)?.hasSuffix(".." + reusedThrough) == true, "\(label): \(summary)")
        let (full, fullSummary) = try harness.run(arguments + ["--out", harness.folder(label + "-full").path, "--full"])
        #expect(full == .succeeded, "\(fullSummary)")
        return (summary, try ReportingHarness.files(harness.folder(label))["cohorts.csv"],
                try ReportingHarness.files(harness.folder(label + "-full"))["cohorts.csv"])
    }

    @Test func aNightAddsTheAsOfMonthToTheReusedCellsAndEqualsAFullRun() throws {
        let harness = try ReportingHarness("cohorts_night", seed: 43, subscriptions: 400, months: 8)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        for (pick, kind) in ["sandbox", "test-row"].enumerated() {
            #expect(try database.execute(Self.siblingSetUp(kind, pick: pick), [harness.asOf]) == 1, "the \(kind) purchase was made")
        }
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        let asOfMonth = try #require(database.query("SELECT to_char($1::timestamptz, 'YYYY-MM')", [harness.asOf]).textRows().first?.first ?? nil)
        let reusedThrough = try #require(ReportMonth(text: asOfMonth)?.advanced(by: -1).description)
        var previous = "first"
        for change in [Self.newCurrency, Self.sibling("sandbox"), Self.sibling("test-row")] {
            #expect(try database.execute(change.sql, [harness.asOf]) == 1, "\(change.name): the change found its rows")
            // The night reused every month before the as-of month and handed their cells to the query.
            let (summary, nightFile, fullFile) = try Self.nightAndFull(harness, ["--sql-dir", sql.path], label: change.name,
                                                                       reusedThrough: reusedThrough)
            let handed = (summary["counts"] as? [String: Any])?["cells_handed"] as? Int ?? 0
            #expect(handed > 0, "\(change.name): \(summary)")
            let earlier = try ReportingHarness.files(harness.folder(previous))["cohorts.csv"]
            #expect(nightFile != nil && nightFile == fullFile, "\(change.name): the night's cohorts equal --full's")
            #expect(fullFile != earlier, "\(change.name): the change moves cohorts")
            previous = change.name + "-full"
        }
    }

    /// The first charges' net revenue in the as-of month (migration 0074) is read from the store only by a run of the
    /// store's as-of month: a run as of the next month stores every subscription's (none charged in that month, the
    /// world ending at its as-of instant), and the night as of the world's instant after it, which sees no change
    /// since (no row lies between the two instants), computes every one again; its file equals `--full`'s (with the
    /// stored facts read across months, the as-of month's net revenue is the next month's, nothing, and it does not).
    @Test func aNightOfAnotherAsOfMonthThanTheStoreComputesTheMonthsNetRevenue() throws {
        let harness = try ReportingHarness("cohorts_night_month", seed: 47, subscriptions: 400, months: 8)
        let sql = try harness.sqlFolder("sql")
        let months = try #require(harness.database.query("""
            SELECT to_char($1::timestamptz - interval '5 months', 'YYYY-MM'), to_char($1::timestamptz, 'YYYY-MM'),
                   to_char(date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') + interval '1 month 1 day', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            """, [harness.asOf]).textRows().first)
        let (from, asOfMonth, nextMonthInstant) = (months[0] ?? "", months[1] ?? "", months[2] ?? "")
        let reusedThrough = try #require(ReportMonth(text: asOfMonth)?.advanced(by: -1).description)
        // (the next month's rates: the as-of month's again, for the run as of the next month)
        try harness.database.execute("""
            INSERT INTO fx_rate (month, from_currency, to_currency, rate, source)
            SELECT (month + interval '1 month')::date, from_currency, to_currency, rate, source FROM fx_rate
            WHERE month = date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC')::date
            """, [harness.asOf])
        let (next, nextSummary) = try harness.run(["--sql-dir", sql.path, "--from", from, "--as-of", nextMonthInstant,
                                                   "--out", harness.folder("next-month").path])
        #expect(next == .succeeded, "\(nextSummary)")
        let (_, nightFile, fullFile) = try Self.nightAndFull(harness, ["--sql-dir", sql.path, "--from", from], label: "night",
                                                             reusedThrough: reusedThrough)
        #expect(nightFile != nil && nightFile == fullFile, "the night's cohorts equal --full's")
    }

    /// A night whose last month is before the as-of month (`--to` the month before) does not read the first charges'
    /// net revenue, which is the as-of month's: it reads its last month's charges and refunds by index. After a late
    /// renewal in that month (in a currency the account never paid in: a new customer of that month's cohort), the
    /// night computes that month alone on the month before's cells, and its file equals `--full`'s.
    @Test func aNightWhoseLastMonthIsBeforeTheAsOfMonthReadsThatMonthsRows() throws {
        let harness = try ReportingHarness("cohorts_night_earlier", seed: 53, subscriptions: 400, months: 8)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        let months = try #require(database.query("""
            SELECT to_char($1::timestamptz - interval '6 months', 'YYYY-MM'), to_char($1::timestamptz - interval '1 month', 'YYYY-MM')
            """, [harness.asOf]).textRows().first)
        let (from, to) = (months[0] ?? "", months[1] ?? "")
        let reusedThrough = try #require(ReportMonth(text: to)?.advanced(by: -1).description)
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--from", from, "--to", to, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        let lateRenewal = Self.newCurrency.sql
            .replacingOccurrences(of: "$1::timestamptz - interval '1 day'", with: "\(Self.monthStart) - interval '10 days'")
            .replacingOccurrences(of: "cohort-night:new-currency", with: "cohort-night:earlier-month")
        #expect(try database.execute(lateRenewal, [harness.asOf]) == 1, "the late renewal found its rows")
        let (_, nightFile, fullFile) = try Self.nightAndFull(harness, ["--sql-dir", sql.path, "--from", from, "--to", to], label: "night",
                                                             reusedThrough: reusedThrough)
        let before = try ReportingHarness.files(harness.folder("first"))["cohorts.csv"]
        #expect(nightFile != nil && nightFile == fullFile, "the night's cohorts equal --full's")
        #expect(fullFile != before, "the late renewal moves cohorts")
    }
}

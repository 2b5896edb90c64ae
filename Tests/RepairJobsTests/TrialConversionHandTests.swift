import Foundation
import Postgres
import Testing

/// Hand world for Reports/trial_conversion.sql (issue 30): a trial that converts after grace and hold, an upgrade inside
/// a trial, a cancelled, a failed and open trials, and Apple's Subscription Event counts beside ours.
@Suite(.serialized) struct TrialConversionHandTests {
    static let columns = ["trials_count", "converted_in_trial_count", "converted_after_retry_count", "converted_count",
                          "cancelled_count", "failed_count", "open_count", "conversion_rate", "conversion_ci_low_rate",
                          "conversion_ci_high_rate", "median_conversion_days", "p90_conversion_days"]

    /// As of 02-28 12:00. Apple product `m`, country USA, free weeks (trial charge of 0, 7 days), all at 12:00 UTC:
    ///   A  trial 01-05; grace 01-12 until 01-28, hold 01-28, recovered 02-03     converted after retry, 29 days
    ///   U  trial 01-10; upgraded 01-14 to `y`, charged 59.99                     converted in the trial, 4 days (in `m`)
    ///   P  trial 01-20; renewed 01-27                                             converted in the trial, 7 days
    ///   C  trial 01-22; auto-renew off 01-24; expired 01-29                      cancelled
    ///   F  trial 01-03; grace 01-10 until 01-26, hold 01-26, expired 02-09       failed
    ///   O  trial 01-28; grace 02-04 until 02-20, hold 02-20                      open (in hold)
    ///   N  trial 02-25 (runs to 03-04)                                            open
    ///   K  trial 02-24; auto-renew off 02-25                                      cancelled (while it runs)
    ///   T  a test purchase's trial                                                nowhere
    /// Google `g`, US: G trial 01-15, renewed 01-22                                converted in the trial, 7 days.
    /// January Apple: 6 trials, 3 converted of 5 decided = 0.6, Wilson [0.230724, 0.882379], median 7, p90 29 days.
    /// February Apple: 2 trials, 0 of 1 decided, Wilson [0, 0.793451]. Google: 1 of 1, Wilson [0.206549, 1].
    /// Apple's events: January 5 trial starts (ours 6: +1) and 2 conversions (ours U, P: 0); February 2 starts and 1
    /// conversion (ours N, K and A: 0, 0).
    @Test func everyOutcomeAndApplesCountsBesideOurs() throws {
        var world = try HandWorld("trial_conversion_hand")
        defer { world.db.close() }
        let monthly = try world.plan("M", "P1M"), yearly = try world.plan("Y", "P1Y")
        func at(_ day: String) -> String { "2026-\(day)T12:00:00Z" }
        func trial(_ day: String, provider: String = "APPLE", test: Bool = false, product: String = "m",
                   country: String = "USA") throws -> UUID {
            let sub = try world.subscription(provider, plan: monthly, test: test)
            let end = try world.db.query("SELECT to_char($1::timestamptz + interval '7 days', 'MM-DD') AS d", [at(day)]).first?
                .decode(String.self, "d") ?? ""
            try world.row(sub, provider, "PURCHASED", at: at(day), amount: 0, currency: "USD", plan: monthly, period: "P1M",
                          periodEnd: at(end), product: product, country: country)
            return sub
        }
        func charge(_ sub: UUID, _ type: String, _ day: String, provider: String = "APPLE", product: String = "m") throws {
            try world.row(sub, provider, type, at: at(day), amount: product == "y" ? 59_990_000 : 9_990_000, currency: "USD",
                          plan: product == "y" ? yearly : monthly, period: product == "y" ? "P1Y" : "P1M",
                          periodEnd: product == "y" ? "2027-01-14T12:00:00Z" : at("03-20"), product: product)
        }
        func event(_ sub: UUID, _ type: String, _ day: String, until: String? = nil) throws {
            try world.row(sub, "APPLE", type, at: at(day), amount: type == "ENTERED_GRACE_PERIOD" ? 9_990_000 : nil,
                          currency: type == "ENTERED_GRACE_PERIOD" ? "USD" : nil, expiresAt: until.map(at))
        }
        let a = try trial("01-05")
        try event(a, "ENTERED_GRACE_PERIOD", "01-12", until: "01-28")
        try event(a, "ENTERED_ON_HOLD", "01-28")
        try charge(a, "RECOVERED", "02-03")
        try charge(try trial("01-10"), "PRODUCT_CHANGED", "01-14", product: "y")
        try charge(try trial("01-20"), "RENEWED", "01-27")
        let c = try trial("01-22")
        try event(c, "CANCELED", "01-24")
        try event(c, "EXPIRED", "01-29")
        let f = try trial("01-03")
        try event(f, "ENTERED_GRACE_PERIOD", "01-10", until: "01-26")
        try event(f, "ENTERED_ON_HOLD", "01-26")
        try event(f, "EXPIRED", "02-09")
        let o = try trial("01-28")
        try event(o, "ENTERED_GRACE_PERIOD", "02-04", until: "02-20")
        try event(o, "ENTERED_ON_HOLD", "02-20")
        _ = try trial("02-25")
        try event(try trial("02-24"), "CANCELED", "02-25")
        _ = try trial("01-06", test: true)
        try charge(try trial("01-15", provider: "GOOGLE", product: "g", country: "US"), "RENEWED", "01-22", provider: "GOOGLE", product: "g")

        // Apple's Subscription Event report, one current file.
        let file = try world.db.query("""
            INSERT INTO report_file (kind, provider, file_name, report_key, content_sha256, period, row_count)
            VALUES ('appleSubscriptionEvent', 'apple', 'Subscription_Event_1_20260228', 'Subscription_Event_1_20260228',
                    repeat('a', 64), '2026-02-28', 4) RETURNING id
            """).first?.decode(Int64.self, "id") ?? 0
        for (line, (day, name, offer, quantity)) in [("2026-01-20", "Start Free Trial", "Free Trial", 5),
                                                     ("2026-01-27", "Paid Subscription from Free Trial", "", 2),
                                                     ("2026-02-24", "Start Introductory Offer", "Free Trial", 2),
                                                     ("2026-02-03", "Paid Subscription from Introductory Offer", "Free Trial", 1),
                                                     ("2026-02-10", "Subscribe", "", 9)].enumerated() {
            _ = try world.db.execute("""
                INSERT INTO apple_subscription_event_row (report_file_id, line, event_date, event, app_name, app_apple_id,
                    subscription_name, subscription_apple_id, subscription_group_id, standard_subscription_duration,
                    subscription_offer_type, subscription_offer_duration, marketing_opt_in, marketing_opt_in_duration,
                    preserved_pricing, proceeds_reason, subscription_offer_name, promotional_offer_id, client, device, state,
                    country, previous_subscription_name, previous_subscription_apple_id, cancellation_reason, quantity)
                VALUES ($1, $2, $3::date, $4, 'App', '1', 'Pro', '2', '3', '1 Month', $5, '', false, '', false, '', '', '',
                        '', '', '', 'US', '', '', '', $6)
                """, [file, line + 1, day, name, offer, quantity])
        }

        let rows = try ReportSQL.rows(world.db, "trial_conversion", asOf: "2026-02-28T12:00:00Z", from: "2026-01-01T00:00:00Z",
                                      to: "2026-02-01T00:00:00Z")
        var got: [String: [String]] = [:]
        for row in rows where row["view"] == "cohort" {
            got["\(row["month"] ?? "") \(row["provider"] ?? "") \(row["product_id"] ?? "-") \(row["country"] ?? "-")"] =
                Self.columns.map { row[$0] ?? "" }
        }
        let want: [String: [String]] = [
            "2026-01 APPLE m USA": ["6", "2", "1", "3", "1", "1", "1", "0.600000", "0.230724", "0.882379", "7.0000", "29.0000"],
            "2026-02 APPLE m USA": ["2", "0", "0", "0", "1", "0", "1", "0.000000", "0.000000", "0.793451", "", ""],
            "2026-01 GOOGLE g US": ["1", "1", "0", "1", "0", "0", "0", "1.000000", "0.206549", "1.000000", "7.0000", "7.0000"],
        ]
        #expect(got == want, "\(got.sorted { $0.key < $1.key })")
        let apple = rows.filter { $0["view"] == "apple_events" }.map {
            [$0["month"] ?? "", $0["trials_count"] ?? "", $0["apple_trials_count"] ?? "", $0["trials_difference_count"] ?? "",
             $0["converted_count"] ?? "", $0["apple_converted_count"] ?? "", $0["converted_difference_count"] ?? ""]
        }
        #expect(apple == [["2026-01", "6", "5", "1", "2", "2", "0"], ["2026-02", "2", "2", "0", "1", "1", "0"]], "\(apple)")
        #expect(rows.first?["view"] == "cohort", "cohort rows first")
    }
}

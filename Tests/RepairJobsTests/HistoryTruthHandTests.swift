import Foundation
import Postgres
import RepairJobs
import Testing

/// Hand worlds for issue 28: the reports count a grace period only until it ends (finding 2), never count a subscriber
/// who has never paid (finding 5), read rows at one instant in an order that does not depend on row ids (finding 3),
/// and expire-lapsed dates an expiry that ends a billing failure when the store gave up (finding 3). Every number is
/// worked out in the comments (P1M: amount × 12/12).
@Suite(.serialized) struct HistoryTruthHandTests {
    private func expectCell(_ bridge: [String: [String: Int64]], _ key: String, _ nonzero: [String: Int64],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        guard let cell = bridge[key] else {
            Issue.record("no bridge row \(key); rows: \(bridge.keys.sorted())", sourceLocation: sourceLocation)
            return
        }
        for column in ReportSQL.bridgeColumns {
            #expect(cell[column] == (nonzero[column] ?? 0), "\(key) \(column)", sourceLocation: sourceLocation)
        }
        #expect(ReportSQL.bridgeHolds(cell), "bridge identity at \(key)", sourceLocation: sourceLocation)
    }

    /// Decision 5. An Apple free month from 01-20; the conversion on 02-20 fails into grace (9.99 USD retried, grace
    /// until 03-08), then billing retry (hold) from 03-08; the retry succeeds on 04-10 (RECOVERED 9.99, to 05-10).
    /// As of 04-30: Jan 31 trial (0), Feb 28 grace but never paid (0), Mar 31 hold (0), Apr 30 paid 9.99: the first
    /// paid charge is `new` 9.99 in April, and there is no February new, March churn or April reactivation.
    @Test func aTrialThatFailsIntoGraceAndRecoversIsNewAtItsFirstPayment() throws {
        var world = try HandWorld("truth_trial_grace")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let sub = try world.subscription("APPLE", plan: plan)
        try world.row(sub, "APPLE", "PURCHASED", at: "2026-01-20T00:00:00Z", amount: 0, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-20T00:00:00Z")
        try world.row(sub, "APPLE", "ENTERED_GRACE_PERIOD", at: "2026-02-20T00:00:00Z", amount: 9_990_000, currency: "USD",
                      expiresAt: "2026-03-08T00:00:00Z")
        try world.row(sub, "APPLE", "ENTERED_ON_HOLD", at: "2026-03-08T00:00:00Z")
        try world.row(sub, "APPLE", "RECOVERED", at: "2026-04-10T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-05-10T00:00:00Z")
        let report = ReportSQL(asOf: "2026-04-30T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-04-01T00:00:00Z")
        let bridge = try report.bridge(world.db)
        for month in ["2026-01", "2026-02", "2026-03"] { #expect(bridge["\(month) APPLE local USD"] == nil, "\(month)") }
        let april: [String: Int64] = ["mrr_micros": 9_990_000, "new_micros": 9_990_000, "new_count": 1, "paying_accounts_count": 1]
        expectCell(bridge, "2026-04 APPLE local USD", april)
        expectCell(bridge, "2026-04 APPLE reporting USD", april)
        // The failure itself: one episode of February, entered grace and hold, recovered from hold.
        let funnel = try ReportSQL.rows(world.db, "grace_hold_recovery", asOf: "2026-04-30T12:00:00Z",
                                        from: "2026-01-01T00:00:00Z", to: "2026-04-01T00:00:00Z")
        #expect(funnel.count == 1)
        let row = try #require(funnel.first)
        let expected = ["failure_month": "2026-02", "episodes_count": "1", "grace_entered_count": "1", "grace_recovered_count": "0",
                        "hold_entered_count": "1", "hold_recovered_count": "1", "churned_count": "0", "open_count": "0",
                        "mrr_recovered_micros": "9990000"]
        for (column, value) in expected { #expect(row[column] == value, "\(column)") }
    }

    /// Finding 2. Two Google subscribers at 12.00 EUR a month fall into grace and nothing follows:
    ///   A  paid 01-05 → 02-05, grace 02-05 until 02-13   → counts at Jan 31, not at Feb 28 (its grace ended 02-13)
    ///   B  paid 01-25 → 02-25, grace 02-25 until 03-05   → counts at Jan 31 and Feb 28 (in grace), not at Mar 10
    /// As of 03-10: Jan new 24.00 (2); Feb start 24.00, churn 12.00 (A), end 12.00; Mar start 12.00, churn 12.00 (B), end 0.
    @Test func aGraceCountsOnlyUntilItEnds() throws {
        var world = try HandWorld("truth_grace_ends")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        for (paid, failed, graceEnd) in [("2026-01-05", "2026-02-05", "2026-02-13"), ("2026-01-25", "2026-02-25", "2026-03-05")] {
            let sub = try world.subscription("GOOGLE", plan: plan)
            try world.row(sub, "GOOGLE", "PURCHASED", at: "\(paid)T00:00:00Z", amount: 12_000_000, currency: "EUR", plan: plan,
                          period: "P1M", periodEnd: "\(failed)T00:00:00Z")
            try world.row(sub, "GOOGLE", "ENTERED_GRACE_PERIOD", at: "\(failed)T00:00:00Z", amount: 12_000_000, currency: "EUR",
                          expiresAt: "\(graceEnd)T00:00:00Z")
        }
        let bridge = try ReportSQL(asOf: "2026-03-10T00:00:00Z", firstMonth: "2026-01-01T00:00:00Z",
                                   lastMonth: "2026-03-01T00:00:00Z").bridge(world.db)
        expectCell(bridge, "2026-01 GOOGLE local EUR", ["mrr_micros": 24_000_000, "new_micros": 24_000_000, "new_count": 2,
                                                       "paying_accounts_count": 2])
        expectCell(bridge, "2026-02 GOOGLE local EUR", ["start_mrr_micros": 24_000_000, "churn_micros": 12_000_000, "churn_count": 1,
                                                       "mrr_micros": 12_000_000, "paying_accounts_count": 1])
        expectCell(bridge, "2026-03 GOOGLE local EUR", ["start_mrr_micros": 12_000_000, "churn_micros": 12_000_000, "churn_count": 1])
    }

    /// Finding 3, ordering. Two Apple subscribers paid 9.99 USD 01-20 → 02-20; each has a grace row (until 03-08) and an
    /// EXPIRED row at the same instant 02-20. Their row ids are in opposite orders. At one instant an ending is read after
    /// a grace row whatever the ids, so both are expired at Feb 28: Feb churn 19.98 (2), end 0.
    @Test func rowsAtOneInstantOrderByKindNotById() throws {
        var world = try HandWorld("truth_same_instant")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        for (graceId, expiredId) in [("ffffffff-ffff-ffff-ffff-ffffffffffff", "00000000-0000-0000-0000-000000000001"),
                                     ("00000000-0000-0000-0000-000000000002", "fffffffe-ffff-ffff-ffff-ffffffffffff")] {
            let sub = try world.subscription("APPLE", plan: plan)
            try world.row(sub, "APPLE", "PURCHASED", at: "2026-01-20T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                          period: "P1M", periodEnd: "2026-02-20T00:00:00Z")
            let grace = try world.row(sub, "APPLE", "ENTERED_GRACE_PERIOD", at: "2026-02-20T00:00:00Z", amount: 9_990_000,
                                      currency: "USD", expiresAt: "2026-03-08T00:00:00Z")
            let expired = try world.row(sub, "APPLE", "EXPIRED", at: "2026-02-20T00:00:00Z")
            for (key, id) in [(grace, graceId), (expired, expiredId)] {
                _ = try world.db.execute("UPDATE billing_transaction SET id = $2::uuid WHERE transaction_key = $1", [key, id])
            }
        }
        let bridge = try ReportSQL(asOf: "2026-03-10T00:00:00Z", firstMonth: "2026-01-01T00:00:00Z",
                                   lastMonth: "2026-03-01T00:00:00Z").bridge(world.db)
        expectCell(bridge, "2026-02 APPLE local USD", ["start_mrr_micros": 19_980_000, "churn_micros": 19_980_000, "churn_count": 2])
        #expect(bridge["2026-03 APPLE local USD"] == nil)
    }

    /// Finding 3, expire-lapsed. The stores' EXPIRED notifications were lost; as of 06-01 both are lapsed:
    ///   G  Google, paid 01-10 → 02-10, grace 02-10 (until 02-18), account hold 02-18; ON_HOLD with expiryTime back at
    ///      the paid end 02-10. Google gives up 30 days after the paid end: derived expiry 03-12 (after the hold row),
    ///      not 02-10 (the grace row's instant, where it opened a second failure that stayed open).
    ///   A  Apple, paid 01-10 → 02-10, grace 02-10 until 02-26, no later row; IN_GRACE_PERIOD, period end 02-26. Apple
    ///      retries for 60 days after the paid end: derived expiry 04-11.
    /// The funnel then has one February failure each, churned, none open.
    @Test func aDerivedExpiryThatEndsABillingFailureIsDatedWhenTheStoreGaveUp() throws {
        var world = try HandWorld("truth_expire_failure")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let google = try world.subscription("GOOGLE", plan: plan, status: "ON_HOLD")
        try world.row(google, "GOOGLE", "PURCHASED", at: "2026-01-10T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-10T00:00:00Z")
        try world.row(google, "GOOGLE", "ENTERED_GRACE_PERIOD", at: "2026-02-10T00:00:00Z", amount: 9_990_000, currency: "USD",
                      expiresAt: "2026-02-18T00:00:00Z")
        try world.row(google, "GOOGLE", "ENTERED_ON_HOLD", at: "2026-02-18T00:00:00Z", expiresAt: "2026-02-10T00:00:00Z")
        let apple = try world.subscription("APPLE", plan: plan, status: "IN_GRACE_PERIOD")
        try world.row(apple, "APPLE", "PURCHASED", at: "2026-01-10T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-10T00:00:00Z")
        try world.row(apple, "APPLE", "ENTERED_GRACE_PERIOD", at: "2026-02-10T00:00:00Z", amount: 9_990_000, currency: "USD",
                      expiresAt: "2026-02-26T00:00:00Z")
        _ = try world.db.execute("UPDATE subscription SET current_period_end_at = $2::timestamptz WHERE id = $1", [google, "2026-02-10T00:00:00Z"])
        _ = try world.db.execute("UPDATE subscription SET current_period_end_at = $2::timestamptz WHERE id = $1", [apple, "2026-02-26T00:00:00Z"])

        let asOf = try #require(ISO8601DateFormatter().date(from: "2026-06-01T00:00:00Z"))
        let result = try ExpireLapsed.expire(world.db, asOf: asOf)
        #expect(result.expired == 2 && result.rows == 2, "\(result)")
        func derived(_ sub: UUID) throws -> [String] {
            try world.db.query("""
                SELECT to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at FROM billing_transaction
                WHERE subscription_id = $1 AND is_derived AND event_type = 'EXPIRED'
                """, [sub]).rows.map { try $0.decode(String.self, "at") }
        }
        #expect(try derived(google) == ["2026-03-12T00:00:00Z"])
        #expect(try derived(apple) == ["2026-04-11T00:00:00Z"])

        let funnel = try ReportSQL.rows(world.db, "grace_hold_recovery", asOf: "2026-06-01T00:00:00Z",
                                        from: "2026-01-01T00:00:00Z", to: "2026-06-01T00:00:00Z")
        #expect(funnel.count == 2, "\(funnel)")
        for provider in ["GOOGLE", "APPLE"] {
            let row = try #require(funnel.first { $0["provider"] == provider }, "\(provider)")
            let expected = ["failure_month": "2026-02", "episodes_count": "1", "grace_entered_count": "1",
                            "hold_entered_count": provider == "GOOGLE" ? "1" : "0", "churned_count": "1", "open_count": "0"]
            for (column, value) in expected { #expect(row[column] == value, "\(provider) \(column)") }
        }
        // Idempotent: a second run derives nothing more.
        #expect(try ExpireLapsed.expire(world.db, asOf: asOf).rows == 0)
    }
}

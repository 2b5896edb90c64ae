import Foundation
import Postgres
import Testing

/// Small worlds whose report numbers are worked out by hand in the comments (rows inserted directly into a fresh
/// migrated database). Snapshots are each month's last millisecond (or the as-of instant); MRR contributions are
/// amount × 12/12 for P1M, × 1/12 for P1Y and × 52/12 for P1W, summed exactly and rounded half to even once.
@Suite(.serialized) struct ReportHandWorldTests {
    /// Requires the bridge cell `key` to hold `nonzero` and zero in every other column, and the identity to hold.
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

    @Test func aTrialIsNotMRR() throws {
        var world = try HandWorld("report_hand_trial")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let sub = try world.subscription("APPLE", plan: plan)
        // Jan 10: a free month (a charge of 0); Feb 10: the first paid renewal, 9.99 USD a month.
        try world.row(sub, "APPLE", "PURCHASED", at: "2026-01-10T00:00:00Z", amount: 0, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-10T00:00:00Z")
        try world.row(sub, "APPLE", "RENEWED", at: "2026-02-10T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-03-10T00:00:00Z")
        let report = ReportSQL(asOf: "2026-02-20T00:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-02-01T00:00:00Z")
        let bridge = try report.bridge(world.db)
        // January: in the trial at the Jan 31 snapshot, contributes 0: no row at all.
        #expect(bridge["2026-01 APPLE local USD"] == nil)
        // February (snapshot = as-of, Feb 20): paying 9.99 → new 9_990_000, one account.
        let february: [String: Int64] = ["mrr_micros": 9_990_000, "new_micros": 9_990_000, "new_count": 1, "paying_accounts_count": 1]
        expectCell(bridge, "2026-02 APPLE local USD", february)
        // USD into USD needs no rate: the reporting view is the same.
        expectCell(bridge, "2026-02 APPLE reporting USD", february)
        let mrr = try report.rows("mrr", world.db)
        #expect(try mrr.map { try $0.decode(String.self, "month") } == ["2026-02"])
        #expect(try mrr.first?.decode(Int64.self, "paying_subscribers") == 1)
    }

    @Test func graceIsMRRAndHoldIsNot() throws {
        var world = try HandWorld("report_hand_grace_hold")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let sub = try world.subscription("GOOGLE", plan: plan)
        // Dec 25: 12.00 EUR a month until Jan 25; Jan 25 the renewal fails: grace at the renewal price 12.00 EUR;
        // Feb 10: grace ends unpaid, account hold.
        try world.row(sub, "GOOGLE", "PURCHASED", at: "2025-12-25T00:00:00Z", amount: 12_000_000, currency: "EUR", plan: plan,
                      period: "P1M", periodEnd: "2026-01-25T00:00:00Z")
        try world.row(sub, "GOOGLE", "ENTERED_GRACE_PERIOD", at: "2026-01-25T00:00:00Z", amount: 12_000_000, currency: "EUR")
        try world.row(sub, "GOOGLE", "ENTERED_ON_HOLD", at: "2026-02-10T00:00:00Z")
        let bridge = try ReportSQL(asOf: "2026-02-28T12:00:00Z", firstMonth: "2025-12-01T00:00:00Z",
                                   lastMonth: "2026-02-01T00:00:00Z").bridge(world.db)
        // Dec 31: paying 12.00 → new.
        expectCell(bridge, "2025-12 GOOGLE local EUR", ["mrr_micros": 12_000_000, "new_micros": 12_000_000, "new_count": 1,
                                                       "paying_accounts_count": 1])
        // Jan 31: in grace, still 12.00: no movement.
        expectCell(bridge, "2026-01 GOOGLE local EUR", ["start_mrr_micros": 12_000_000, "mrr_micros": 12_000_000,
                                                       "paying_accounts_count": 1])
        // Feb 28: on hold, 0 → churn of 12.00.
        expectCell(bridge, "2026-02 GOOGLE local EUR", ["start_mrr_micros": 12_000_000, "churn_micros": 12_000_000, "churn_count": 1])
        // No EUR rate was loaded: no converted row (never a silent 0 or 1).
        #expect(!bridge.keys.contains { $0.contains("reporting") })
    }

    @Test func aYearlyPlanIsOneTwelfthAndAWeeklyPlanFiftyTwoTwelfths() throws {
        var world = try HandWorld("report_hand_periods")
        defer { world.db.close() }
        let annual = try world.plan("ANNUAL", "P1Y"), weekly = try world.plan("WEEKLY", "P1W")
        let a = try world.subscription("APPLE", plan: annual), w = try world.subscription("APPLE", plan: weekly)
        try world.row(a, "APPLE", "PURCHASED", at: "2026-03-02T00:00:00Z", amount: 119_990_000, currency: "USD", plan: annual,
                      period: "P1Y", periodEnd: "2027-03-02T00:00:00Z")
        try world.row(w, "APPLE", "PURCHASED", at: "2026-03-28T00:00:00Z", amount: 2_990_000, currency: "USD", plan: weekly,
                      period: "P1W", periodEnd: "2026-04-04T00:00:00Z")
        let report = ReportSQL(asOf: "2026-03-31T20:00:00Z", firstMonth: "2026-03-01T00:00:00Z", lastMonth: "2026-03-01T00:00:00Z")
        // Yearly: 119_990_000 / 12 = 9_999_166.67 → 9_999_167. Weekly: 2_990_000 × 52 / 12 = 12_956_666.67 → 12_956_667.
        let rows = try report.rows("mrr", world.db).map {
            [try $0.decode(String.self, "plan_code"), try $0.decode(String.self, "billing_period"),
             String(try $0.decode(Int64.self, "mrr_micros")), String(try $0.decode(Int64.self, "paying_subscribers")),
             String(try $0.decode(Int64.self, "arppu_micros"))]
        }
        #expect(rows == [["ANNUAL", "P1Y", "9999167", "1", "9999167"], ["WEEKLY", "P1W", "12956667", "1", "12956667"]])
        // The provider's cell sums exactly first: (119_990_000 + 155_480_000) / 12 = 22_955_833.33 → 22_955_833
        // (rounding each first would give 22_955_834).
        let cell: [String: Int64] = ["mrr_micros": 22_955_833, "new_micros": 22_955_833, "new_count": 2, "paying_accounts_count": 2]
        let bridge = try report.bridge(world.db)
        expectCell(bridge, "2026-03 APPLE local USD", cell)
        expectCell(bridge, "2026-03 APPLE reporting USD", cell)
    }

    /// Two EUR subscriptions; EUR→USD 1.10 in January, 1.20 in February.
    private func euroWorld(_ name: String, februaryRate: Bool) throws -> HandWorld {
        var world = try HandWorld(name)
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        try world.rate("2026-01-01", "EUR", "1.10")
        if februaryRate { try world.rate("2026-02-01", "EUR", "1.20") }
        let a = try world.subscription("APPLE", plan: plan), b = try world.subscription("APPLE", plan: plan)
        // A: 10.00 EUR from Jan 10, renewed Feb 10. B: 5.00 EUR from Feb 15.
        try world.row(a, "APPLE", "PURCHASED", at: "2026-01-10T00:00:00Z", amount: 10_000_000, currency: "EUR", plan: plan,
                      period: "P1M", periodEnd: "2026-02-10T00:00:00Z")
        try world.row(a, "APPLE", "RENEWED", at: "2026-02-10T00:00:00Z", amount: 10_000_000, currency: "EUR", plan: plan,
                      period: "P1M", periodEnd: "2026-03-10T00:00:00Z")
        try world.row(b, "APPLE", "PURCHASED", at: "2026-02-15T00:00:00Z", amount: 5_000_000, currency: "EUR", plan: plan,
                      period: "P1M", periodEnd: "2026-03-15T00:00:00Z")
        return world
    }

    @Test func conversionUsesTheMonthsRateAndTheFXBucketIsolatesTheRateChange() throws {
        let world = try euroWorld("report_hand_fx", februaryRate: true)
        defer { world.db.close() }
        let report = ReportSQL(asOf: "2026-02-28T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-02-01T00:00:00Z")
        #expect(try report.rows("fx_missing", world.db).isEmpty)
        let bridge = try report.bridge(world.db)
        // Local: Jan new 10.00; Feb start 10.00, new 5.00 (B), end 15.00.
        expectCell(bridge, "2026-01 APPLE local EUR", ["mrr_micros": 10_000_000, "new_micros": 10_000_000, "new_count": 1,
                                                      "paying_accounts_count": 1])
        expectCell(bridge, "2026-02 APPLE local EUR", ["start_mrr_micros": 10_000_000, "new_micros": 5_000_000, "new_count": 1,
                                                      "mrr_micros": 15_000_000, "paying_accounts_count": 2])
        // Reporting: Jan 10.00 × 1.10 = 11.00 USD. Feb: start 11.00 (January's end, at January's rate); new B at
        // February's rate 5.00 × 1.20 = 6.00; end 15.00 × 1.20 = 18.00; fx = 18 − 11 − 6 = 1.00 = 10.00 × (1.20 − 1.10).
        expectCell(bridge, "2026-01 APPLE reporting USD", ["mrr_micros": 11_000_000, "new_micros": 11_000_000, "new_count": 1,
                                                          "paying_accounts_count": 1])
        expectCell(bridge, "2026-02 APPLE reporting USD", ["start_mrr_micros": 11_000_000, "fx_micros": 1_000_000,
                                                          "new_micros": 6_000_000, "new_count": 1, "mrr_micros": 18_000_000,
                                                          "paying_accounts_count": 2])
    }

    @Test func fxMissingNamesTheMonthAndCurrencyWithoutARate() throws {
        let world = try euroWorld("report_hand_fx_missing", februaryRate: false)
        defer { world.db.close() }
        let report = ReportSQL(asOf: "2026-02-28T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-02-01T00:00:00Z")
        // January needs EUR of January (present); February needs EUR of February (missing) and of January (present).
        let missing = try report.rows("fx_missing", world.db).map { row in
            try ["month", "currency", "to_currency"].map { try row.decode(String.self, $0) }
        }
        #expect(missing == [["2026-02", "EUR", "USD"]])
        // The bridge converts nothing it has no rate for: January's reporting row only.
        let bridge = try report.bridge(world.db)
        #expect(bridge["2026-01 APPLE reporting USD"]?["mrr_micros"] == 11_000_000)
        #expect(bridge["2026-02 APPLE reporting USD"] == nil)
        #expect(bridge["2026-02 APPLE local EUR"]?["mrr_micros"] == 15_000_000)
    }

    @Test func aRefundOfLastMonthsChargeLandsInBothRefundViews() throws {
        var world = try HandWorld("report_hand_refund")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let r = try world.subscription("GOOGLE", plan: plan), s = try world.subscription("GOOGLE", plan: plan)
        // R: bought Jan 20 10:00 (9.99 USD), refunded in full Feb 3 10:00 (user, remorse): 14 days later.
        let charge = try world.row(r, "GOOGLE", "PURCHASED", at: "2026-01-20T10:00:00Z", amount: 9_990_000, currency: "USD",
                                   plan: plan, period: "P1M", periodEnd: "2026-02-20T10:00:00Z")
        try world.row(r, "GOOGLE", "REFUNDED", at: "2026-02-03T10:00:00Z", amount: -9_990_000, currency: "USD",
                      refundKind: "REFUND", refunds: charge, voidedSource: 0, voidedReason: 1)
        // S: bought Jan 5, renewed Feb 5 (paid transactions: 2 in January, 1 in February).
        try world.row(s, "GOOGLE", "PURCHASED", at: "2026-01-05T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-05T00:00:00Z")
        try world.row(s, "GOOGLE", "RENEWED", at: "2026-02-05T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-03-05T00:00:00Z")
        // T, a test purchase, and U, whose later test row makes it one: their January charges are no paid transactions
        // (the paid counts' excluded part, migration 0056).
        let t = try world.subscription("GOOGLE", plan: plan, test: true), u = try world.subscription("GOOGLE", plan: plan)
        for excluded in [t, u] {
            try world.row(excluded, "GOOGLE", "PURCHASED", at: "2026-01-07T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                          period: "P1M", periodEnd: "2026-02-07T00:00:00Z")
        }
        try world.row(u, "GOOGLE", "EXPIRED", at: "2026-02-07T00:00:00Z", test: true)
        let report = ReportSQL(asOf: "2026-02-28T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-02-01T00:00:00Z")
        let rows = try report.rows("refunds", world.db).map { row in
            try ["view", "month", "provider", "currency", "refund_kind", "store_reason", "refunds_count", "refunds_micros",
                 "paid_transactions_count", "median_days", "p90_days"].map { try row.decode(String.self, $0) }
                + [String(describing: Decimal(string: try row.decode(String.self, "refund_rate")) ?? -1)]
        }
        // By refund month (February: 1 refund over 1 paid transaction) and by charge month (January: 1 of 2).
        #expect(rows == [
            ["by_refund_month", "2026-02", "GOOGLE", "USD", "REFUND", "google voidedSource 0 user voidedReason 1 remorse", "1",
             "9990000", "1", "14.0000", "14.0000", "1"],
            ["by_charge_month", "2026-01", "GOOGLE", "USD", "REFUND", "google voidedSource 0 user voidedReason 1 remorse", "1",
             "9990000", "2", "14.0000", "14.0000", "0.5"],
        ])
        // MRR: January 2 × 9.99 new; February R is refunded (0): churn 9.99, S unchanged.
        let bridge = try report.bridge(world.db)
        expectCell(bridge, "2026-01 GOOGLE local USD", ["mrr_micros": 19_980_000, "new_micros": 19_980_000, "new_count": 2,
                                                       "paying_accounts_count": 2])
        expectCell(bridge, "2026-02 GOOGLE local USD", ["start_mrr_micros": 19_980_000, "churn_micros": 9_990_000, "churn_count": 1,
                                                       "mrr_micros": 9_990_000, "paying_accounts_count": 1])
    }

    @Test func anUpgradeMidMonthIsExpansionAndADowngradeContraction() throws {
        var world = try HandWorld("report_hand_plan_change")
        defer { world.db.close() }
        let basic = try world.plan("BASIC", "P1M"), premium = try world.plan("PREMIUM", "P1M")
        let a = try world.subscription("APPLE", plan: basic), b = try world.subscription("APPLE", plan: premium)
        // A: basic 5.00 from Jan 5, renewed Feb 5; upgraded Feb 15 to premium 10.00 (a new period), renewed Mar 15.
        try world.row(a, "APPLE", "PURCHASED", at: "2026-01-05T00:00:00Z", amount: 5_000_000, currency: "USD", plan: basic,
                      period: "P1M", periodEnd: "2026-02-05T00:00:00Z")
        try world.row(a, "APPLE", "RENEWED", at: "2026-02-05T00:00:00Z", amount: 5_000_000, currency: "USD", plan: basic,
                      period: "P1M", periodEnd: "2026-03-05T00:00:00Z")
        try world.row(a, "APPLE", "PRODUCT_CHANGED", at: "2026-02-15T00:00:00Z", amount: 10_000_000, currency: "USD", plan: premium,
                      period: "P1M", periodEnd: "2026-03-15T00:00:00Z")
        try world.row(a, "APPLE", "RENEWED", at: "2026-03-15T00:00:00Z", amount: 10_000_000, currency: "USD", plan: premium,
                      period: "P1M", periodEnd: "2026-04-15T00:00:00Z")
        // B: premium 10.00 from Jan 6, renewed Feb 6; downgraded to basic 5.00 at the Mar 6 renewal.
        try world.row(b, "APPLE", "PURCHASED", at: "2026-01-06T00:00:00Z", amount: 10_000_000, currency: "USD", plan: premium,
                      period: "P1M", periodEnd: "2026-02-06T00:00:00Z")
        try world.row(b, "APPLE", "RENEWED", at: "2026-02-06T00:00:00Z", amount: 10_000_000, currency: "USD", plan: premium,
                      period: "P1M", periodEnd: "2026-03-06T00:00:00Z")
        try world.row(b, "APPLE", "PRODUCT_CHANGED", at: "2026-03-06T00:00:00Z", amount: 5_000_000, currency: "USD", plan: basic,
                      period: "P1M", periodEnd: "2026-04-06T00:00:00Z")
        let bridge = try ReportSQL(asOf: "2026-03-31T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z",
                                   lastMonth: "2026-03-01T00:00:00Z").bridge(world.db)
        // Jan: 5 + 10 new. Feb: A 5 → 10 expansion 5, B 10 unchanged: end 20. Mar: A unchanged, B 10 → 5 contraction 5: end 15.
        expectCell(bridge, "2026-01 APPLE local USD", ["mrr_micros": 15_000_000, "new_micros": 15_000_000, "new_count": 2,
                                                      "paying_accounts_count": 2])
        expectCell(bridge, "2026-02 APPLE local USD", ["start_mrr_micros": 15_000_000, "expansion_micros": 5_000_000,
                                                      "expansion_count": 1, "mrr_micros": 20_000_000, "paying_accounts_count": 2])
        expectCell(bridge, "2026-03 APPLE local USD", ["start_mrr_micros": 20_000_000, "contraction_micros": 5_000_000,
                                                      "contraction_count": 1, "mrr_micros": 15_000_000, "paying_accounts_count": 2])
    }

    @Test func aReturnAfterChurnIsReactivation() throws {
        var world = try HandWorld("report_hand_reactivation")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let account = try world.account()
        let first = try world.subscription("GOOGLE", plan: plan, account: account)
        let second = try world.subscription("GOOGLE", plan: plan, account: account)
        // The account pays 8.00 from Jan 10 to Feb 10 (then expires), and again from Mar 12 with a new purchase token.
        try world.row(first, "GOOGLE", "PURCHASED", at: "2026-01-10T00:00:00Z", amount: 8_000_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-10T00:00:00Z")
        try world.row(first, "GOOGLE", "EXPIRED", at: "2026-02-10T00:00:00Z")
        try world.row(second, "GOOGLE", "PURCHASED", at: "2026-03-12T00:00:00Z", amount: 8_000_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-04-12T00:00:00Z")
        let report = ReportSQL(asOf: "2026-03-31T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-03-01T00:00:00Z")
        let bridge = try report.bridge(world.db)
        // Jan new 8; Feb churn 8; Mar the same account pays again after a month at 0: reactivation 8, not new.
        expectCell(bridge, "2026-01 GOOGLE local USD", ["mrr_micros": 8_000_000, "new_micros": 8_000_000, "new_count": 1,
                                                       "paying_accounts_count": 1])
        expectCell(bridge, "2026-02 GOOGLE local USD", ["start_mrr_micros": 8_000_000, "churn_micros": 8_000_000, "churn_count": 1])
        expectCell(bridge, "2026-03 GOOGLE local USD", ["reactivation_micros": 8_000_000, "reactivation_count": 1,
                                                       "mrr_micros": 8_000_000, "paying_accounts_count": 1])
        let movements = try report.rows("mrr_movements", world.db).map {
            try [$0.decode(String.self, "month"), $0.decode(String.self, "billing_account_id"), $0.decode(String.self, "movement"),
                 String($0.decode(Int64.self, "amount_micros"))]
        }
        let id = account.uuidString.lowercased()
        #expect(movements == [["2026-01", id, "new", "8000000"], ["2026-02", id, "churn", "8000000"],
                              ["2026-03", id, "reactivation", "8000000"]])
    }

    @Test func aTestPurchaseAndAPendingPurchaseCountNowhere() throws {
        var world = try HandWorld("report_hand_test_pending")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let paying = try world.subscription("APPLE", plan: plan)
        // A test purchase (its rows say is_test) and its refund; a PENDING purchase (no charge yet, though its current
        // columns carry a price); and one ordinary purchase of 4.99.
        let test = try world.subscription("APPLE", plan: plan)
        let pending = try world.subscription("APPLE", plan: plan, status: "PENDING", currentPrice: 9_990_000, currency: "USD")
        try world.row(paying, "APPLE", "PURCHASED", at: "2026-01-05T00:00:00Z", amount: 4_990_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-05T00:00:00Z")
        let charge = try world.row(test, "APPLE", "PURCHASED", at: "2026-01-06T00:00:00Z", amount: 9_990_000, currency: "USD",
                                   plan: plan, period: "P1M", periodEnd: "2026-02-06T00:00:00Z", test: true)
        try world.row(test, "APPLE", "REFUNDED", at: "2026-01-07T00:00:00Z", amount: -9_990_000, currency: "USD",
                      refundKind: "REFUND", refunds: charge, test: true)
        let report = ReportSQL(asOf: "2026-01-31T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-01-01T00:00:00Z")
        // Only the 4.99 purchase counts: MRR 4_990_000, one paying subscription; no refund anywhere.
        expectCell(try report.bridge(world.db), "2026-01 APPLE local USD",
                   ["mrr_micros": 4_990_000, "new_micros": 4_990_000, "new_count": 1, "paying_accounts_count": 1])
        let mrr = try report.rows("mrr", world.db)
        #expect(try mrr.map { try $0.decode(Int64.self, "paying_subscribers") } == [1])
        #expect(try report.rows("refunds", world.db).isEmpty)
        #expect(try report.rows("mrr_movements", world.db).map { try $0.decode(String.self, "subscription_id") }
                == [paying.uuidString.lowercased()])
        _ = pending
    }

    @Test func knownAndCorrectedBasisDifferExactlyByALateRecordedRow() throws {
        var world = try HandWorld("report_hand_basis")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let sub = try world.subscription("APPLE", plan: plan)
        // Bought Jan 5 (known at once); renewed Feb 5, but we learned of the renewal only on Mar 10.
        try world.row(sub, "APPLE", "PURCHASED", at: "2026-01-05T00:00:00Z", amount: 10_000_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-02-05T00:00:00Z")
        try world.row(sub, "APPLE", "RENEWED", at: "2026-02-05T00:00:00Z", amount: 10_000_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-03-05T00:00:00Z", recordedAt: "2026-03-10T00:00:00Z")
        var report = ReportSQL(asOf: "2026-02-28T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-02-01T00:00:00Z")
        let january: [String: Int64] = ["mrr_micros": 10_000_000, "new_micros": 10_000_000, "new_count": 1, "paying_accounts_count": 1]
        // As corrected now: the renewal counts, February is unchanged at 10.00.
        let corrected = try report.bridge(world.db)
        expectCell(corrected, "2026-01 APPLE local USD", january)
        expectCell(corrected, "2026-02 APPLE local USD", ["start_mrr_micros": 10_000_000, "mrr_micros": 10_000_000,
                                                         "paying_accounts_count": 1])
        // As known on Feb 28: the renewal was not recorded yet, the period ended Feb 5: churn of 10.00.
        report.basis = "known"
        let known = try report.bridge(world.db)
        expectCell(known, "2026-01 APPLE local USD", january)
        expectCell(known, "2026-02 APPLE local USD", ["start_mrr_micros": 10_000_000, "churn_micros": 10_000_000, "churn_count": 1])
        // Any other basis is an error, never a silent default.
        report.basis = "latest"
        #expect(throws: (any Error).self) { try report.bridge(world.db) }
    }
    @Test func aRevokedSubscriptionStillEntitledIsLeakage() throws {
        var world = try HandWorld("report_hand_leakage")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let leaking = try world.subscription("APPLE", plan: plan), closed = try world.subscription("APPLE", plan: plan)
        // Both bought Jan 5 (entitled to Feb 5) and revoked Jan 20; only `closed` had its grant ended at the revocation.
        for sub in [leaking, closed] {
            try world.row(sub, "APPLE", "PURCHASED", at: "2026-01-05T00:00:00Z", amount: 9_990_000, currency: "USD", plan: plan,
                          period: "P1M", periodEnd: "2026-02-05T00:00:00Z")
            try world.row(sub, "APPLE", "REVOKED", at: "2026-01-20T00:00:00Z")
            _ = try world.db.execute("""
                INSERT INTO entitlement_interval (subscription_id, billing_account_id, plan_id, valid_from, valid_until, ended_at, recorded_at)
                SELECT id, billing_account_id, plan_id, '2026-01-05T00:00:00Z', '2026-02-05T00:00:00Z',
                       CASE WHEN id = $2 THEN '2026-01-20T00:00:00Z'::timestamptz END, '2026-01-05T00:00:00Z'
                FROM subscription WHERE id = $1
                """, [sub, closed])
        }
        func leaks(_ asOf: String) throws -> [[String]] {
            try ReportSQL(asOf: asOf, firstMonth: asOf, lastMonth: asOf).rows("entitlement_leakage", world.db).map { row in
                try ["subscription_id", "state", "entitled_until"].map { try row.decode(String.self, $0) }
            }
        }
        // Jan 15: both paid and entitled. Jan 25: `leaking` is revoked yet its grant runs to Feb 5.
        #expect(try leaks("2026-01-15T00:00:00Z").isEmpty)
        #expect(try leaks("2026-01-25T00:00:00Z") == [[leaking.uuidString.lowercased(), "REVOKED", "2026-02-05T00:00:00.000Z"]])
    }
}

import Foundation
import Postgres
import Testing

/// Hand world for Reports/plan_change_mix.sql (issue 30): upgrades, a downgrade at renewal, a crossgrade, period changes
/// (one an upgrade inside a free trial), a price change that is no plan change, and a test purchase.
@Suite(.serialized) struct PlanChangeMixHandTests {
    /// As of 02-28 12:00, USD. Products m (9.99 a month), p (14.99 a month), m2 (9.99 a month), y (59.99 a year):
    ///   A, A2  m 01-05 / 01-06, changed to p 01-20 / 01-21          January upgrades m → p: 2, from 19.98, to 29.98, +10.00
    ///   D      p 01-03, renewed in m 02-03                           February downgrade p → m: from 14.99, to 9.99, −5.00
    ///   C      m 01-08, changed to m2 01-25 at the same price        January crossgrade m → m2, moved 0
    ///   U      free trial of m 01-10, changed to y 01-14 (59.99)     January period change m P1M → y P1Y: from 0,
    ///                                                                to 59.99/12 = 4.999167, +4.999167
    ///   R      m 01-02, renewed in m at 10.99 02-02                  no plan change (a price change)
    ///   T      a test purchase changed m → p                         nowhere
    /// Google, product g: G 5.00 a month 01-04, changed to 50.00 a year 01-30: January period change, from 5.00, to
    /// 4.166667, moved −0.833333.
    ///   S      m and p at one instant 02-10 (m's transaction key first), p renewed 02-20
    ///                                                                February upgrade m → p: from 9.99, to 14.99 (once)
    ///   X      m 02-05, changed to p 02-12, then a test row 02-25         nowhere (a subscription with a test row)
    /// Each month asked alone (a night's run: the month's charges by index, each one's previous looked up) gives that
    /// month's rows of the run over both (the whole history sorted once).
    @Test func everyKindOfChangeWithItsMRR() throws {
        var world = try HandWorld("plan_change_mix_hand")
        defer { world.db.close() }
        let monthly = try world.plan("M", "P1M"), yearly = try world.plan("Y", "P1Y")
        let prices: [String: Int64] = ["m": 9_990_000, "p": 14_990_000, "m2": 9_990_000, "y": 59_990_000]
        func charge(_ sub: UUID, _ day: String, _ product: String, type: String = "PURCHASED", amount: Int64? = nil,
                    provider: String = "APPLE", period: String = "P1M") throws {
            try world.row(sub, provider, type, at: "2026-\(day)T12:00:00Z", amount: amount ?? prices[product] ?? 0,
                          currency: "USD", plan: period == "P1Y" ? yearly : monthly, period: period,
                          periodEnd: "2026-03-20T12:00:00Z", product: product)
        }
        for (start, change) in [("01-05", "01-20"), ("01-06", "01-21")] {
            let a = try world.subscription("APPLE", plan: monthly)
            try charge(a, start, "m")
            try charge(a, change, "p", type: "PRODUCT_CHANGED")
        }
        let d = try world.subscription("APPLE", plan: monthly)
        try charge(d, "01-03", "p")
        try charge(d, "02-03", "m", type: "RENEWED")
        let c = try world.subscription("APPLE", plan: monthly)
        try charge(c, "01-08", "m")
        try charge(c, "01-25", "m2", type: "PRODUCT_CHANGED")
        let u = try world.subscription("APPLE", plan: monthly)
        try charge(u, "01-10", "m", amount: 0)
        try charge(u, "01-14", "y", type: "PRODUCT_CHANGED", period: "P1Y")
        let r = try world.subscription("APPLE", plan: monthly)
        try charge(r, "01-02", "m")
        try charge(r, "02-02", "m", type: "RENEWED", amount: 10_990_000)
        let t = try world.subscription("APPLE", plan: monthly, test: true)
        try charge(t, "01-05", "m")
        try charge(t, "01-20", "p", type: "PRODUCT_CHANGED")
        let g = try world.subscription("GOOGLE", plan: monthly)
        try charge(g, "01-04", "g", amount: 5_000_000, provider: "GOOGLE")
        try charge(g, "01-30", "g", type: "PRODUCT_CHANGED", amount: 50_000_000, provider: "GOOGLE", period: "P1Y")
        let s = try world.subscription("APPLE", plan: monthly)
        try charge(s, "02-10", "m")
        try charge(s, "02-10", "p", type: "PRODUCT_CHANGED")
        try charge(s, "02-20", "p", type: "RENEWED")
        let x = try world.subscription("APPLE", plan: monthly)
        try charge(x, "02-05", "m")
        try charge(x, "02-12", "p", type: "PRODUCT_CHANGED")
        try world.row(x, "APPLE", "RENEWED", at: "2026-02-25T12:00:00Z", test: true)

        func rows(from: String, to: String) throws -> [String] {
            try ReportSQL.rows(world.db, "plan_change_mix", asOf: "2026-02-28T12:00:00Z", from: "\(from)T00:00:00Z",
                               to: "\(to)T00:00:00Z").map { row in
                ["month", "provider", "change_type", "from_product_id", "to_product_id", "from_billing_period",
                 "to_billing_period", "changes_count", "from_mrr_micros", "to_mrr_micros", "mrr_moved_micros"]
                    .map { row[$0] ?? "" }.joined(separator: " ")
            }
        }
        let got = try rows(from: "2026-01-01", to: "2026-02-01")
        #expect(got == [
            "2026-01 APPLE crossgrade m m2 P1M P1M 1 9990000 9990000 0",
            "2026-01 APPLE period_change m y P1M P1Y 1 0 4999167 4999167",
            "2026-01 APPLE upgrade m p P1M P1M 2 19980000 29980000 10000000",
            "2026-01 GOOGLE period_change g g P1M P1Y 1 5000000 4166667 -833333",
            "2026-02 APPLE downgrade p m P1M P1M 1 14990000 9990000 -5000000",
            "2026-02 APPLE upgrade m p P1M P1M 1 9990000 14990000 5000000",
        ], "\(got)")
        for month in ["2026-01", "2026-02"] {
            let alone = try rows(from: "\(month)-01", to: "\(month)-01")
            #expect(alone == got.filter { $0.hasPrefix(month) }, "\(month) alone: \(alone)")
        }
    }
}

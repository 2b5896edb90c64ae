import Foundation
import Postgres
import Testing

/// Hand world for Reports/cohorts.sql (issue 30): subscriber and revenue retention and realised LTV of two cohorts,
/// with a refund in the start month, a partial refund later, a lapse and a converted free trial.
@Suite(.serialized) struct CohortsHandTests {
    /// As of 03-31 12:00, Apple, USD, monthly:
    ///   A  10.00 on 01-05, renewed 02-05, 03-05                      January cohort; paying at every month end
    ///   B  20.00 on 01-10, refunded in full 01-20                     January cohort (first paid charge); never retained
    ///   C  30.00 on 01-15, expired 02-15                              January cohort; paying at Jan 31 only
    ///   E  free trial 01-20, 10.00 on 01-27, renewed 02-27, 03-27     January cohort (its first paid charge)
    ///   D  10.00 on 02-03, renewed 03-03, 5.00 refunded 03-10         February cohort; not paying at Mar 31
    /// January cohort (4): retained 3, 2, 2; net revenue 50.00 (10 + 20 − 20 + 30 + 10), 20.00, 20.00; cumulative 50,
    /// 70, 90; revenue retention 1, 0.4, 0.4; LTV 12.50, 17.50, 22.50.
    /// February cohort (1): retained 1, 0; net 10.00, 5.00; cumulative 10, 15; revenue retention 1, 0.5; LTV 10, 15.
    @Test func retentionAndRealisedLTVWithRefundsDeducted() throws {
        var world = try HandWorld("cohorts_hand")
        defer { world.db.close() }
        let plan = try world.plan("M", "P1M")
        @discardableResult
        func charge(_ sub: UUID, _ day: String, _ end: String, _ amount: Int64, type: String = "PURCHASED") throws -> String {
            try world.row(sub, "APPLE", type, at: "2026-\(day)T00:00:00Z", amount: amount, currency: "USD", plan: plan,
                          period: "P1M", periodEnd: "2026-\(end)T00:00:00Z", product: "m")
        }
        func refund(_ sub: UUID, _ day: String, _ amount: Int64, of key: String) throws {
            try world.row(sub, "APPLE", "REFUNDED", at: "2026-\(day)T00:00:00Z", amount: -amount, currency: "USD",
                          refundKind: "REFUND", refunds: key)
        }
        let a = try world.subscription("APPLE", plan: plan)
        try charge(a, "01-05", "02-05", 10_000_000)
        try charge(a, "02-05", "03-05", 10_000_000, type: "RENEWED")
        try charge(a, "03-05", "04-05", 10_000_000, type: "RENEWED")
        let b = try world.subscription("APPLE", plan: plan)
        try refund(b, "01-20", 20_000_000, of: try charge(b, "01-10", "02-10", 20_000_000))
        let c = try world.subscription("APPLE", plan: plan)
        try charge(c, "01-15", "02-15", 30_000_000)
        try world.row(c, "APPLE", "EXPIRED", at: "2026-02-15T00:00:00Z")
        let e = try world.subscription("APPLE", plan: plan)
        try charge(e, "01-20", "01-27", 0)
        try charge(e, "01-27", "02-27", 10_000_000, type: "RENEWED")
        try charge(e, "02-27", "03-27", 10_000_000, type: "RENEWED")
        try charge(e, "03-27", "04-27", 10_000_000, type: "RENEWED")
        let d = try world.subscription("APPLE", plan: plan)
        try charge(d, "02-03", "03-03", 10_000_000)
        try refund(d, "03-10", 5_000_000, of: try charge(d, "03-03", "04-03", 10_000_000, type: "RENEWED"))

        let rows = try ReportSQL.rows(world.db, "cohorts", asOf: "2026-03-31T12:00:00Z", from: "2026-01-01T00:00:00Z",
                                      to: "2026-03-01T00:00:00Z")
        let got = rows.map { row in
            ["cohort_month", "months_since_start", "month", "cohort_subscribers", "retained_subscribers", "subscriber_retention_rate",
             "net_revenue_micros", "cumulative_net_revenue_micros", "revenue_retention_rate", "ltv_micros"].map { row[$0] ?? "" }
                .joined(separator: " ")
        }
        #expect(got == [
            "2026-01 0 2026-01 4 3 0.750000 50000000 50000000 1.000000 12500000",
            "2026-01 1 2026-02 4 2 0.500000 20000000 70000000 0.400000 17500000",
            "2026-01 2 2026-03 4 2 0.500000 20000000 90000000 0.400000 22500000",
            "2026-02 0 2026-02 1 1 1.000000 10000000 10000000 1.000000 10000000",
            "2026-02 1 2026-03 1 0 0.000000 5000000 15000000 0.500000 15000000",
        ], "\(got)")
    }
}

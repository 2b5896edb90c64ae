import Foundation
import Postgres
import Testing

/// Hand world for Reports/kpis.sql (issue 30): every column worked out by hand, and every column traced to the report
/// Reports/README.md ("KPIs") names as its source.
@Suite(.serialized) struct KPIsHandTests {
    /// As of 02-28 12:00 (February partial), USD, P1M:
    ///   Apple   A 10.00 from 01-05, renewed 02-05; B 20.00 from 01-10, refunded 02-03; C a free trial from 02-20.
    ///   Google  G 30.00 from 01-15, charged back 02-01; K 40.00 from 02-02.
    /// January: Apple MRR 30 (2 paying, new 30), Google 30 (1 paying); all 60, ARR 720; paid transactions 2 + 1.
    /// February: Apple start 30, churn 20 (B), MRR 10, paying 1 of 2 at the start, active 2 (A, C trialing):
    ///   logo churn 1/2, revenue churn 20/30, NRR 10/30, quick ratio 0/20, ARPPU 10, ARPU 5; paid 1 (A's renewal),
    ///   refunded 1 → refund rate 1. Google start 30, churn 30 (G), new 40 (K): MRR 40, net new 10, logo churn 1/1,
    ///   NRR 0, quick ratio 40/30; paid 1 (K), 1 chargeback. All: MRR 50, start 60, net new −10, logo churn 2/3,
    ///   revenue churn 50/60, NRR 10/60, quick ratio 40/50, ARPPU 25, ARPU 50/3, refund and chargeback rates 1/2.
    @Test func everyColumnByHandAndTracedToItsReport() throws {
        var world = try HandWorld("kpis_hand")
        defer { world.db.close() }
        let plan = try world.plan("M", "P1M")
        func charge(_ sub: UUID, _ provider: String, _ at: String, _ end: String, _ amount: Int64,
                    type: String = "PURCHASED") throws -> String {
            try world.row(sub, provider, type, at: "2026-\(at)T00:00:00Z", amount: amount, currency: "USD", plan: plan,
                          period: "P1M", periodEnd: "2026-\(end)T00:00:00Z", product: "m")
        }
        let a = try world.subscription("APPLE", plan: plan)
        _ = try charge(a, "APPLE", "01-05", "02-05", 10_000_000)
        _ = try charge(a, "APPLE", "02-05", "03-05", 10_000_000, type: "RENEWED")
        let b = try world.subscription("APPLE", plan: plan)
        let bKey = try charge(b, "APPLE", "01-10", "02-10", 20_000_000)
        try world.row(b, "APPLE", "REFUNDED", at: "2026-02-03T00:00:00Z", amount: -20_000_000, currency: "USD",
                      refundKind: "REFUND", refunds: bKey)
        let c = try world.subscription("APPLE", plan: plan)
        _ = try charge(c, "APPLE", "02-20", "03-06", 0)
        let g = try world.subscription("GOOGLE", plan: plan)
        let gKey = try charge(g, "GOOGLE", "01-15", "02-15", 30_000_000)
        try world.row(g, "GOOGLE", "REFUNDED", at: "2026-02-01T00:00:00Z", amount: -30_000_000, currency: "USD",
                      refundKind: "CHARGEBACK", refunds: gKey, voidedSource: 2, voidedReason: 7)
        let k = try world.subscription("GOOGLE", plan: plan)
        _ = try charge(k, "GOOGLE", "02-02", "03-02", 40_000_000)

        let asOf = "2026-02-28T12:00:00Z", from = "2026-01-01T00:00:00Z", to = "2026-02-01T00:00:00Z"
        let rows = try ReportSQL.rows(world.db, "kpis", asOf: asOf, from: from, to: to)
        var got: [String: [String: String]] = [:]
        for row in rows { got["\(row["month"] ?? "") \(row["provider"] ?? "")"] = row }
        #expect(rows.map { "\($0["month"] ?? "") \($0["provider"] ?? "")" }
                == ["2026-01 APPLE", "2026-01 GOOGLE", "2026-01 ALL", "2026-02 APPLE", "2026-02 GOOGLE", "2026-02 ALL"])
        let want: [String: [String: String]] = [
            "2026-01 ALL": ["is_partial": "f", "mrr_micros": "60000000", "arr_micros": "720000000", "net_new_mrr_micros": "60000000",
                            "paying_accounts_count": "3", "paid_transactions_count": "3", "refund_rate": "0.000000"],
            "2026-02 APPLE": ["is_partial": "t", "mrr_micros": "10000000", "start_mrr_micros": "30000000", "churn_micros": "20000000",
                              "paying_accounts_count": "1", "start_paying_accounts_count": "2", "churned_accounts_count": "1",
                              "active_count": "2", "arppu_micros": "10000000", "arpu_micros": "5000000",
                              "logo_churn_rate": "0.500000", "revenue_churn_rate": "0.666667", "nrr_rate": "0.333333",
                              "quick_ratio": "0.0000", "paid_transactions_count": "1", "refunded_transactions_count": "1",
                              "refund_rate": "1.000000", "chargeback_rate": "0.000000"],
            "2026-02 GOOGLE": ["mrr_micros": "40000000", "new_micros": "40000000", "net_new_mrr_micros": "10000000",
                               "logo_churn_rate": "1.000000", "nrr_rate": "0.000000", "quick_ratio": "1.3333",
                               "chargebacks_count": "1", "chargeback_rate": "1.000000"],
            "2026-02 ALL": ["mrr_micros": "50000000", "arr_micros": "600000000", "start_mrr_micros": "60000000",
                            "net_new_mrr_micros": "-10000000", "paying_accounts_count": "2", "start_paying_accounts_count": "3",
                            "active_count": "3", "arppu_micros": "25000000", "arpu_micros": "16666667",
                            "logo_churn_rate": "0.666667", "revenue_churn_rate": "0.833333", "nrr_rate": "0.166667",
                            "quick_ratio": "0.8000", "refund_rate": "0.500000", "chargeback_rate": "0.500000"],
        ]
        for (key, columns) in want {
            for (column, value) in columns { #expect(got[key]?[column] == value, "\(key) \(column)") }
        }
        #expect(got["2026-01 ALL"]?["logo_churn_rate"] == nil, "no start, no rate")

        // Traced: the provider rows are the bridge's reporting cells, the active count the subscribers report's.
        let bridge = try ReportSQL(asOf: asOf, firstMonth: from, lastMonth: to).bridge(world.db)
        let traced = ["mrr_micros", "start_mrr_micros", "new_micros", "expansion_micros", "contraction_micros", "churn_micros",
                      "reactivation_micros", "paying_accounts_count"]
        for provider in ["APPLE", "GOOGLE"] {
            for month in ["2026-01", "2026-02"] {
                for column in traced {
                    #expect(got["\(month) \(provider)"]?[column].flatMap { Int64($0) } == bridge["\(month) \(provider) reporting USD"]?[column],
                            "\(month) \(provider) \(column)")
                }
            }
        }
        var active: [String: Int] = [:]
        for row in try ReportSQL.rows(world.db, "subscribers", asOf: asOf, from: from, to: to) {
            active["\(row["month"] ?? "") \(row["provider"] ?? "")", default: 0] += Int(row["active_count"] ?? "") ?? 0
        }
        for (key, count) in active { #expect(got[key]?["active_count"] == String(count), "\(key) active") }
    }
}

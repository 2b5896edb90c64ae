import Foundation
import Postgres
import Testing

/// Hand-computed worlds for the definitions the independent pandas peer (Benchmarks/peers/reports_peer.py) found
/// stated loosely in Reports/README.md: each pins the exact reading both sides now follow.
@Suite(.serialized) struct ReportPeerHandTests {
    /// The refund rate is written with six decimals (rounded half away from zero), like every other `*_rate`.
    @Test func theRefundRateHasSixDecimals() throws {
        var world = try HandWorld("report_peer_refund_rate")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        // Three January purchases of 9.99 USD (three paid transactions); the second is refunded on Feb 3.
        var charges: [String] = []
        for day in ["05", "12", "20"] {
            let sub = try world.subscription("GOOGLE", plan: plan)
            charges.append(try world.row(sub, "GOOGLE", "PURCHASED", at: "2026-01-\(day)T10:00:00Z", amount: 9_990_000,
                                         currency: "USD", plan: plan, period: "P1M", periodEnd: "2026-02-\(day)T10:00:00Z"))
            if day == "12" {
                try world.row(sub, "GOOGLE", "REFUNDED", at: "2026-02-03T10:00:00Z", amount: -9_990_000, currency: "USD",
                              refundKind: "REFUND", refunds: charges[1], voidedSource: 0, voidedReason: 1)
            }
        }
        let report = ReportSQL(asOf: "2026-02-28T12:00:00Z", firstMonth: "2026-01-01T00:00:00Z", lastMonth: "2026-02-01T00:00:00Z")
        let rates = try report.rows("refunds", world.db).map { row in
            try [row.decode(String.self, "view"), row.decode(String.self, "month"),
                 row.decodeIfPresent(String.self, "refund_rate") ?? ""]
        }
        // By charge month, January: 1 refunded of 3 paid = 0.333333… → "0.333333" (not 20 digits of a numeric
        // division). By refund month, February: 1 refund over 0 paid February charges → no rate.
        #expect(rates.contains(["by_charge_month", "2026-01", "0.333333"]), "\(rates)")
        #expect(rates.contains { $0[0] == "by_refund_month" && $0[1] == "2026-02" && $0[2].isEmpty }, "\(rates)")
    }

    /// A grace period that ends in hold and then recovers is valued at the recovering charge (the first charge after
    /// the grace row, a RECOVERED one), not at the grace row's retried price.
    @Test func aGraceThatGoesOnHoldIsValuedAtTheRecoveringCharge() throws {
        var world = try HandWorld("report_peer_grace_hold_recovered")
        defer { world.db.close() }
        let plan = try world.plan("PRO_MONTHLY", "P1M")
        let sub = try world.subscription("APPLE", plan: plan)
        // Jul 29: 34.90 USD a month until Aug 29; Aug 29 the renewal fails (grace, retried at 34.90); Sep 14 billing
        // retry (hold); Sep 17 recovered at the decreased price 29.90 until Oct 17.
        try world.row(sub, "APPLE", "PURCHASED", at: "2026-07-29T00:00:00Z", amount: 34_900_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-08-29T00:00:00Z")
        try world.row(sub, "APPLE", "ENTERED_GRACE_PERIOD", at: "2026-08-29T00:00:00Z", amount: 34_900_000, currency: "USD")
        try world.row(sub, "APPLE", "ENTERED_ON_HOLD", at: "2026-09-14T00:00:00Z")
        try world.row(sub, "APPLE", "RECOVERED", at: "2026-09-17T00:00:00Z", amount: 29_900_000, currency: "USD", plan: plan,
                      period: "P1M", periodEnd: "2026-10-17T00:00:00Z")
        let bridge = try ReportSQL(asOf: "2026-09-30T12:00:00Z", firstMonth: "2026-07-01T00:00:00Z",
                                   lastMonth: "2026-09-01T00:00:00Z").bridge(world.db)
        // Jul 31: 34.90 new. Aug 31: in grace, worth the recovering charge 29.90 → contraction 5.00.
        // Sep 30 (as-of): paying 29.90 from the recovery → no movement.
        #expect(bridge["2026-07 APPLE local USD"]?["new_micros"] == 34_900_000)
        #expect(bridge["2026-08 APPLE local USD"]?["contraction_micros"] == 5_000_000)
        #expect(bridge["2026-08 APPLE local USD"]?["mrr_micros"] == 29_900_000)
        #expect(bridge["2026-09 APPLE local USD"]?["mrr_micros"] == 29_900_000)
        #expect(bridge["2026-09 APPLE local USD"]?["contraction_micros"] == 0)
    }
}

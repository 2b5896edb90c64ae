import Foundation
import Postgres
import Testing

/// Hand world for Reports/subscribers.sql (issue 30): every state, a product change, a grace past its end, a test
/// purchase; each number worked out in the comments. As of 03-15 12:00, months Jan to Mar.
@Suite(.serialized) struct SubscribersHandTests {
    static let columns = ["trialing_count", "paying_count", "grace_count", "billing_retry_count", "paused_count",
                          "cancelled_paid_through_count", "active_count", "starts_count", "ends_count", "net_change_count"]

    /// Apple, product `m` (monthly) unless said:
    ///   A  trial 01-10 → 01-17, renewed 01-17 → 02-17 → 03-17           Jan paying, Feb paying, Mar paying
    ///   B  trial 01-25 → 02-01, auto-renew off 01-28, expired 02-01      Jan trialing, then gone (Feb end)
    ///   C  paid 01-05 → 02-05, grace until 02-21, hold 02-21, recovered 03-10 → 04-10
    ///                                                                    Jan paying, Feb billing retry, Mar paying
    ///   D  paid 02-03 → 03-03, auto-renew off 02-10, expired 03-03       Feb cancelled but paid through, Mar gone
    ///   E  paid 01-26 → 02-26, grace until 03-14, nothing after          Jan paying, Feb grace, Mar billing retry
    ///   H  paid 01-12 → 02-12 in m, upgraded 02-01 to `y` (yearly)      Jan paying in m; Feb, Mar paying in y
    ///   T  a test purchase                                               nowhere
    /// Google, product `g`: F paid 01-15 → 02-15, paused 02-15            Jan paying, Feb and Mar paused.
    @Test func everyStateAtItsMonthEnd() throws {
        var world = try HandWorld("subscribers_states")
        defer { world.db.close() }
        let monthly = try world.plan("M", "P1M"), yearly = try world.plan("Y", "P1Y")
        func paid(_ sub: UUID, _ at: String, _ end: String, type: String = "PURCHASED", amount: Int64 = 9_990_000,
                  product: String = "m", provider: String = "APPLE") throws {
            try world.row(sub, provider, type, at: "2026-\(at)T00:00:00Z", amount: amount, currency: "USD",
                          plan: product == "y" ? yearly : monthly, period: product == "y" ? "P1Y" : "P1M",
                          periodEnd: (end.count > 5 ? end : "2026-\(end)") + "T00:00:00Z", product: product)
        }
        func event(_ sub: UUID, _ type: String, _ at: String, expires: String? = nil, provider: String = "APPLE") throws {
            try world.row(sub, provider, type, at: "2026-\(at)T00:00:00Z", expiresAt: expires.map { "2026-\($0)T00:00:00Z" })
        }
        let a = try world.subscription("APPLE", plan: monthly)
        try paid(a, "01-10", "01-17", amount: 0)
        try paid(a, "01-17", "02-17", type: "RENEWED")
        try paid(a, "02-17", "03-17", type: "RENEWED")
        let b = try world.subscription("APPLE", plan: monthly)
        try paid(b, "01-25", "02-01", amount: 0)
        try event(b, "CANCELED", "01-28")
        try event(b, "EXPIRED", "02-01")
        let c = try world.subscription("APPLE", plan: monthly)
        try paid(c, "01-05", "02-05")
        try world.row(c, "APPLE", "ENTERED_GRACE_PERIOD", at: "2026-02-05T00:00:00Z", amount: 9_990_000, currency: "USD",
                      expiresAt: "2026-02-21T00:00:00Z")
        try event(c, "ENTERED_ON_HOLD", "02-21")
        try paid(c, "03-10", "04-10", type: "RECOVERED")
        let d = try world.subscription("APPLE", plan: monthly)
        try paid(d, "02-03", "03-03")
        try event(d, "CANCELED", "02-10")
        try event(d, "EXPIRED", "03-03")
        let e = try world.subscription("APPLE", plan: monthly)
        try paid(e, "01-26", "02-26")
        try world.row(e, "APPLE", "ENTERED_GRACE_PERIOD", at: "2026-02-26T00:00:00Z", amount: 9_990_000, currency: "USD",
                      expiresAt: "2026-03-14T00:00:00Z")
        let h = try world.subscription("APPLE", plan: monthly)
        try paid(h, "01-12", "02-12")
        try paid(h, "02-01", "2027-02-01", type: "PRODUCT_CHANGED", amount: 59_990_000, product: "y")
        let t = try world.subscription("APPLE", plan: monthly, test: true)
        try paid(t, "01-10", "02-10")
        let f = try world.subscription("GOOGLE", plan: monthly)
        try paid(f, "01-15", "02-15", product: "g", provider: "GOOGLE")
        try event(f, "PAUSED", "02-15", provider: "GOOGLE")

        let rows = try ReportSQL.rows(world.db, "subscribers", asOf: "2026-03-15T12:00:00Z", from: "2026-01-01T00:00:00Z",
                                      to: "2026-03-01T00:00:00Z")
        var got: [String: [Int]] = [:]
        for row in rows {
            got["\(row["month"] ?? "") \(row["provider"] ?? "") \(row["product_id"] ?? "-")"] = Self.columns.map { Int(row[$0] ?? "") ?? -1 }
        }
        //                               trial pay grace retry pause cancelled active starts ends net
        let want: [String: [Int]] = [
            "2026-01 APPLE m": [1, 4, 0, 0, 0, 0, 5, 5, 0, 5],          // A B C E H
            "2026-02 APPLE m": [0, 1, 1, 1, 0, 1, 4, 1, 2, -1],         // A, E grace, C retry, D; D starts; B and H end
            "2026-02 APPLE y": [0, 1, 0, 0, 0, 0, 1, 1, 0, 1],          // H
            "2026-03 APPLE m": [0, 2, 0, 1, 0, 0, 3, 0, 1, -1],         // A, C; E retry; D ends
            "2026-03 APPLE y": [0, 1, 0, 0, 0, 0, 1, 0, 0, 0],
            "2026-01 GOOGLE g": [0, 1, 0, 0, 0, 0, 1, 1, 0, 1],
            "2026-02 GOOGLE g": [0, 0, 0, 0, 1, 0, 1, 0, 0, 0],
            "2026-03 GOOGLE g": [0, 0, 0, 0, 1, 0, 1, 0, 0, 0],
        ]
        #expect(got == want, "\(got.sorted { $0.key < $1.key })")
        // The identity on every row: active = the previous month's active + net change.
        var previous: [String: Int] = [:]
        for row in rows {
            let key = "\(row["provider"] ?? "") \(row["product_id"] ?? "-")"
            #expect(Int(row["active_count"] ?? "") == (previous[key] ?? 0) + (Int(row["net_change_count"] ?? "") ?? 0), "\(row)")
            previous[key] = Int(row["active_count"] ?? "")
        }
    }
}

import Foundation
import Postgres
import Testing

/// Reports/price_change_churn.sql on a world written by hand; every expected number is worked out in the comments.
@Suite(.serialized) struct PriceChangeChurnHandTests {
    /// Apple raises the monthly product in the USA from 9.99 to 12.99 USD (consent needed); Google raises its monthly
    /// product in the US from 9.99 to 11.99 USD (opt-in). As of 2026-07-01:
    ///   A1 (Apple) told 04-20, never consents, EXPIRED · PRICE_INCREASE_NOT_CONSENTED at its renewal 05-15 -> change churn
    ///   A2 (Apple) told 04-20, consents 04-25, renews at 12.99 on 05-15                                  -> consented, applied
    ///   A3 (Apple) told 04-20, turns auto-renew off 04-22, EXPIRED · VOLUNTARY 05-15                      -> other churn
    ///   B1, B2 (Apple, same product, storefront DEU: not reached) paying on 04-20; B2 expires 05-10      -> baseline
    ///   G1 (Google) told 05-10, system cancellation of the unconfirmed opt-in 06-09, EXPIRED 06-10         -> change churn
    ///   G2 (Google) told 05-10, cancels 05-12 (ordinary cancellation), EXPIRED · VOLUNTARY 06-10          -> other churn
    /// Apple cohort: affected 3, notified 3, consented 1, applied 1, change churn 1, other churn 1; window 04-20 (first
    /// notice) to 06-15 (the targeted renewal 05-15 + one month). Baseline: B1 and B2 paying on 04-20, B2 ended 05-10
    /// inside the window: 2 peers, 1 churned. Rates: cohort 2/3 = 0.666667, baseline 1/2 = 0.5, excess 0.166667.
    /// Newcombe (z = 1.959964, z^2 = 3.841459): Wilson 2/3: centre (2 + 1.920729)/6.841459 = 0.573083, half-width
    /// 1.959964 x sqrt(2 x 1/3 + 0.960365)/6.841459 = 0.365424 -> [0.207659, 0.938508]; Wilson 1/2: centre 0.5,
    /// half-width 1.959964 x sqrt(0.5 + 0.960365)/5.841459 = 0.405469 -> [0.094531, 0.905469]. Low = 0.166667 −
    /// sqrt((0.666667 − 0.207659)^2 + (0.905469 − 0.5)^2) = −0.445781; high = 0.166667 + sqrt((0.938508 − 0.666667)^2 +
    /// (0.5 − 0.094531)^2) = 0.654829. MRR lost: A1's 9.99 (monthly) = 9 990 000; gained: A2's 12.99 − 9.99 = 3 000 000;
    /// net −6 990 000.
    /// Google cohort: affected 2, change churn 1 (G1), other churn 1 (G2: the ordinary cancellation is not caused by the
    /// change), no baseline peers (no Google subscriber elsewhere): baseline and excess rates NULL; MRR lost 9 990 000.
    @Test func aDeclinedAppleIncreaseAndAnUnconfirmedGoogleOptInArePriceChangeChurnButAnOrdinaryCancellationIsNot() throws {
        let ledger = try HandLedger("report_price_change_hand")
        defer { ledger.db.close() }
        let old: Int64 = 9_990_000
        let appleProduct = "com.example.pro.monthly", googleProduct = "pro_monthly"
        func apple(_ country: String, bought: String) throws -> UUID {
            let s = try ledger.subscription("APPLE")
            try ledger.row(s, "APPLE", "PURCHASED", bought, amount: old, country: country, product: appleProduct)
            return s
        }
        func told(_ s: UUID, _ provider: String, _ at: String, new: Int64, country: String, state: String) throws {
            try ledger.row(s, provider, "PRICE_CHANGE_PENDING", at, amount: new, country: country)
            try ledger.priceChange(s, provider, mode: "PRICE_INCREASE", state: state,
                                   product: provider == "APPLE" ? appleProduct : googleProduct, region: country,
                                   old: old, new: new, announcedAt: at)
        }
        let a1 = try apple("USA", bought: "2026-04-15T00:00:00Z")
        try told(a1, "APPLE", "2026-04-20T00:00:00Z", new: 12_990_000, country: "USA", state: "CANCELED")
        try ledger.row(a1, "APPLE", "EXPIRED", "2026-05-15T00:00:00Z", country: "USA", reason: "PRICE_INCREASE_NOT_CONSENTED")
        let a2 = try apple("USA", bought: "2026-04-15T00:00:00Z")
        try told(a2, "APPLE", "2026-04-20T00:00:00Z", new: 12_990_000, country: "USA", state: "APPLIED")
        try ledger.row(a2, "APPLE", "PRICE_CHANGE_ACCEPTED", "2026-04-25T00:00:00Z", amount: 12_990_000, country: "USA")
        try ledger.row(a2, "APPLE", "RENEWED", "2026-05-15T00:00:00Z", amount: 12_990_000, country: "USA", product: appleProduct)
        let a3 = try apple("USA", bought: "2026-04-15T00:00:00Z")
        try told(a3, "APPLE", "2026-04-20T00:00:00Z", new: 12_990_000, country: "USA", state: "CANCELED")
        try ledger.row(a3, "APPLE", "CANCELED", "2026-04-22T00:00:00Z", country: "USA", reason: "VOLUNTARY")
        try ledger.row(a3, "APPLE", "EXPIRED", "2026-05-15T00:00:00Z", country: "USA", reason: "VOLUNTARY")
        let b1 = try apple("DEU", bought: "2026-04-01T00:00:00Z")
        try ledger.row(b1, "APPLE", "RENEWED", "2026-05-01T00:00:00Z", amount: old, country: "DEU", product: appleProduct)
        let b2 = try apple("DEU", bought: "2026-04-10T00:00:00Z")
        try ledger.row(b2, "APPLE", "EXPIRED", "2026-05-10T00:00:00Z", country: "DEU", reason: "VOLUNTARY")

        func google() throws -> UUID {
            let s = try ledger.subscription("GOOGLE")
            try ledger.row(s, "GOOGLE", "PURCHASED", "2026-05-10T00:00:00Z", amount: old, country: "US", product: googleProduct)
            try told(s, "GOOGLE", "2026-05-10T01:00:00Z", new: 11_990_000, country: "US", state: "CANCELED")
            return s
        }
        let g1 = try google()
        try ledger.row(g1, "GOOGLE", "CANCELED", "2026-06-09T00:00:00Z", country: "US", reason: "PRICE_INCREASE_NOT_CONSENTED")
        try ledger.row(g1, "GOOGLE", "EXPIRED", "2026-06-10T00:00:00Z", country: "US", reason: "PRICE_INCREASE_NOT_CONSENTED")
        let g2 = try google()
        try ledger.row(g2, "GOOGLE", "CANCELED", "2026-05-12T00:00:00Z", country: "US", reason: "VOLUNTARY")
        try ledger.row(g2, "GOOGLE", "EXPIRED", "2026-06-10T00:00:00Z", country: "US", reason: "VOLUNTARY")

        let rows = try ReportSQL.rows(ledger.db, "price_change_churn", asOf: "2026-07-01T00:00:00Z",
                                      from: "2026-01-01T00:00:00Z", to: "2026-07-31T00:00:00Z")
        #expect(rows.count == 2)
        let appleRow = try #require(rows.first { $0["provider"] == "APPLE" })
        let appleExpected: [String: String] = [
            "product_id": appleProduct, "region": "USA", "currency": "USD", "old_price_micros": "9990000",
            "new_price_micros": "12990000", "mode": "PRICE_INCREASE", "window_start": "2026-04-20T00:00:00Z",
            "window_end": "2026-06-15T00:00:00Z", "affected_count": "3", "notified_count": "3", "consented_count": "1",
            "applied_count": "1", "churned_due_to_change_count": "1", "other_churn_count": "1", "baseline_peers_count": "2",
            "baseline_churned_count": "1", "cohort_churn_rate": "0.666667", "baseline_churn_rate": "0.500000",
            "excess_churn_rate": "0.166667", "excess_churn_ci_low_rate": "-0.445781", "excess_churn_ci_high_rate": "0.654829",
            "mrr_lost_micros": "9990000", "mrr_gained_micros": "3000000", "net_mrr_micros": "-6990000",
        ]
        for (column, value) in appleExpected { #expect(appleRow[column] == value, "apple \(column): \(appleRow[column] ?? "NULL")") }
        let googleRow = try #require(rows.first { $0["provider"] == "GOOGLE" })
        let googleExpected: [String: String] = [
            "affected_count": "2", "notified_count": "2", "consented_count": "0", "applied_count": "0",
            "churned_due_to_change_count": "1", "other_churn_count": "1", "baseline_peers_count": "0", "baseline_churned_count": "0",
            "cohort_churn_rate": "1.000000", "mrr_lost_micros": "9990000", "mrr_gained_micros": "0", "net_mrr_micros": "-9990000",
        ]
        for (column, value) in googleExpected { #expect(googleRow[column] == value, "google \(column): \(googleRow[column] ?? "NULL")") }
        #expect(googleRow["baseline_churn_rate"] == nil && googleRow["excess_churn_rate"] == nil)
    }

    /// The baseline at its edges: who is a peer at the window start and whether the peer churned by the window end.
    /// Apple raises the monthly product in the USA from 9.99 to 12.99 USD; A1 is told 2026-04-20 (window start) and
    /// expires PRICE_INCREASE_NOT_CONSENTED 05-15 (target 05-15 + one month: window end 06-15). Same product in DEU
    /// (monthly charges, each paying one month from its instant):
    ///   P1 charged exactly at the window start 04-20 and EXPIRED at that same instant: latest charge at the start, nothing
    ///      strictly between, its first ending at or after the start is 04-20 -> peer, churned
    ///   P2 charged 04-01, ENTERED_GRACE_PERIOD 04-10 (before the start)                    -> not a peer
    ///   P3 charged 04-01, EXPIRED exactly at the start 04-20 (after its charge, by the start) -> not a peer
    ///   P4 charged 04-01, EXPIRED 05-01 (inside the window)                                -> peer, churned
    ///   P5 charged 04-01, renewed 05-01, still paying                                      -> peer, not churned
    ///   P6 charged 04-01, then charged 04-10 for another product (latest charge not this product's) -> not a peer
    ///   P7 charged 03-01 only (paid period ended 04-01, before the start)                  -> not a peer
    ///   P8 charged 04-01, EXPIRED 06-20 (after the window end)                             -> peer, not churned
    /// Baseline: peers P1, P4, P5, P8 = 4; churned P1, P4 = 2 -> 0.500000. Cohort: 1 affected, 1 change churn -> 1.000000;
    /// excess 0.500000.
    @Test func theBaselineCountsPeersPayingAtTheWindowStartAndTheirEndingsByTheWindowEnd() throws {
        let ledger = try HandLedger("report_price_change_baseline_hand")
        defer { ledger.db.close() }
        let old: Int64 = 9_990_000, product = "com.example.pro.monthly", other = "com.example.pro.monthly.family"
        let a1 = try ledger.subscription("APPLE")
        try ledger.row(a1, "APPLE", "PURCHASED", "2026-04-15T00:00:00Z", amount: old, country: "USA", product: product)
        try ledger.row(a1, "APPLE", "PRICE_CHANGE_PENDING", "2026-04-20T00:00:00Z", amount: 12_990_000, country: "USA")
        try ledger.priceChange(a1, "APPLE", mode: "PRICE_INCREASE", state: "CANCELED", product: product, region: "USA",
                               old: old, new: 12_990_000, announcedAt: "2026-04-20T00:00:00Z")
        try ledger.row(a1, "APPLE", "EXPIRED", "2026-05-15T00:00:00Z", country: "USA", reason: "PRICE_INCREASE_NOT_CONSENTED")
        func peer(_ bought: String, _ rest: [(type: String, at: String, product: String?)] = []) throws {
            let s = try ledger.subscription("APPLE")
            try ledger.row(s, "APPLE", "PURCHASED", bought, amount: old, country: "DEU", product: product)
            for row in rest {
                try ledger.row(s, "APPLE", row.type, row.at, amount: row.product == nil ? nil : old, country: "DEU",
                               product: row.product, reason: row.type == "EXPIRED" ? "VOLUNTARY" : nil)
            }
        }
        try peer("2026-04-20T00:00:00Z", [("EXPIRED", "2026-04-20T00:00:00Z", nil)])                  // P1
        try peer("2026-04-01T00:00:00Z", [("ENTERED_GRACE_PERIOD", "2026-04-10T00:00:00Z", nil)])     // P2
        try peer("2026-04-01T00:00:00Z", [("EXPIRED", "2026-04-20T00:00:00Z", nil)])                  // P3
        try peer("2026-04-01T00:00:00Z", [("EXPIRED", "2026-05-01T00:00:00Z", nil)])                  // P4
        try peer("2026-04-01T00:00:00Z", [("RENEWED", "2026-05-01T00:00:00Z", product)])              // P5
        try peer("2026-04-01T00:00:00Z", [("PRODUCT_CHANGED", "2026-04-10T00:00:00Z", other)])        // P6
        try peer("2026-03-01T00:00:00Z")                                                               // P7
        try peer("2026-04-01T00:00:00Z", [("EXPIRED", "2026-06-20T00:00:00Z", nil)])                  // P8

        let rows = try ReportSQL.rows(ledger.db, "price_change_churn", asOf: "2026-07-01T00:00:00Z",
                                      from: "2026-01-01T00:00:00Z", to: "2026-07-31T00:00:00Z")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        let expected: [String: String] = [
            "region": "USA", "window_start": "2026-04-20T00:00:00Z", "window_end": "2026-06-15T00:00:00Z",
            "affected_count": "1", "churned_due_to_change_count": "1", "other_churn_count": "0",
            "baseline_peers_count": "4", "baseline_churned_count": "2", "cohort_churn_rate": "1.000000",
            "baseline_churn_rate": "0.500000", "excess_churn_rate": "0.500000",
        ]
        for (column, value) in expected { #expect(row[column] == value, "\(column): \(row[column] ?? "NULL")") }
    }
}

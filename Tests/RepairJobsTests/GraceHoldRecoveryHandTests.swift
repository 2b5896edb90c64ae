import Foundation
import Postgres
import Testing

/// Reports/grace_hold_recovery.sql on a world written by hand; every expected number is worked out in the comments.
@Suite(.serialized) struct GraceHoldRecoveryHandTests {
    /// Four Apple subscribers of the monthly plan (9.99 USD, storefront USA) fail to renew in February 2026; as of
    /// 2026-03-15:
    ///   A  grace 02-05, RECOVERED 02-08 (learned only on 03-20)    -> recovered in grace, 3 days
    ///   B  grace 02-10, hold 02-26, hold again 03-01 (a second row of the same hold), RECOVERED 03-02
    ///                                                              -> recovered from hold once, 20 days
    ///   C  grace 02-20, hold 03-08, nothing since                  -> entered hold, still open
    ///   D  grace 02-25, hold 03-01, EXPIRED (billing) 03-10        -> churned
    ///   T  a test purchase with a grace row                        -> nowhere
    /// Row 2026-02 / APPLE / pro_monthly / USA / USD: episodes 4, grace entered 4, recovered in grace 1 (A), hold
    /// entered 3 (B, C, D), recovered from hold 1 (B: its two hold rows are one episode), churned 1 (D), open 1 (C).
    /// Rates: grace 1/4 = 0.25, hold 1/3 = 0.333333, recovery 2/4 = 0.5, churn 1/4 = 0.25. Days to recover {3, 20}:
    /// nearest-rank median = 3, p90 = 20. MRR recovered: A 9.99 + B 9.99 (monthly plan, x 12/12) = 19.98 USD.
    /// As known on 03-15 (basis 'known'), A's recovery was not yet recorded: A is open (open 2, grace recovered 0,
    /// recovery 1/4, MRR recovered 9.99 USD, days {20}).
    @Test func aGraceRecoveryAndAHoldRecoveryAreCountedOnceEachAndOpenFailuresStayOpen() throws {
        let ledger = try HandLedger("report_grace_hand")
        defer { ledger.db.close() }
        let price: Int64 = 9_990_000
        func charge(_ s: UUID, _ type: String, _ at: String, recordedAt: String? = nil, isTest: Bool = false) throws {
            try ledger.row(s, "APPLE", type, at, amount: price, country: "USA", product: "com.example.pro.monthly",
                           recordedAt: recordedAt, isTest: isTest)
        }
        func event(_ s: UUID, _ type: String, _ at: String, reason: String? = nil, isTest: Bool = false) throws {
            try ledger.row(s, "APPLE", type, at, amount: type == "ENTERED_GRACE_PERIOD" ? price : nil, country: "USA",
                           reason: reason, isTest: isTest)
        }
        let a = try ledger.subscription("APPLE")
        try charge(a, "PURCHASED", "2026-01-05T10:00:00Z")
        try event(a, "ENTERED_GRACE_PERIOD", "2026-02-05T10:00:00Z")
        try charge(a, "RECOVERED", "2026-02-08T10:00:00Z", recordedAt: "2026-03-20T00:00:00Z")
        let b = try ledger.subscription("APPLE")
        try charge(b, "PURCHASED", "2026-01-10T00:00:00Z")
        try event(b, "ENTERED_GRACE_PERIOD", "2026-02-10T00:00:00Z")
        try event(b, "ENTERED_ON_HOLD", "2026-02-26T00:00:00Z")
        try event(b, "ENTERED_ON_HOLD", "2026-03-01T00:00:00Z")
        try charge(b, "RECOVERED", "2026-03-02T00:00:00Z")
        let c = try ledger.subscription("APPLE")
        try charge(c, "PURCHASED", "2026-01-20T00:00:00Z")
        try event(c, "ENTERED_GRACE_PERIOD", "2026-02-20T00:00:00Z")
        try event(c, "ENTERED_ON_HOLD", "2026-03-08T00:00:00Z")
        let d = try ledger.subscription("APPLE")
        try charge(d, "PURCHASED", "2026-01-25T00:00:00Z")
        try event(d, "ENTERED_GRACE_PERIOD", "2026-02-25T00:00:00Z")
        try event(d, "ENTERED_ON_HOLD", "2026-03-01T12:00:00Z")
        try event(d, "EXPIRED", "2026-03-10T00:00:00Z", reason: "BILLING_FAILURE")
        let t = try ledger.subscription("APPLE")
        try charge(t, "PURCHASED", "2026-01-07T00:00:00Z", isTest: true)
        try event(t, "ENTERED_GRACE_PERIOD", "2026-02-07T00:00:00Z", isTest: true)

        let corrected = try ReportSQL.rows(ledger.db, "grace_hold_recovery", asOf: "2026-03-15T00:00:00Z",
                                           from: "2026-01-01T00:00:00Z", to: "2026-03-31T00:00:00Z")
        #expect(corrected.count == 1)
        let row = try #require(corrected.first)
        let expected: [String: String] = [
            "failure_month": "2026-02", "provider": "APPLE", "plan": "pro_monthly", "country": "USA", "currency": "USD",
            "episodes_count": "4", "grace_entered_count": "4", "grace_recovered_count": "1", "hold_entered_count": "3",
            "hold_recovered_count": "1", "churned_count": "1", "open_count": "1",
            "grace_recovery_rate": "0.250000", "hold_recovery_rate": "0.333333", "recovery_rate": "0.500000", "churn_rate": "0.250000",
            "median_recovery_days": "3.0000", "p90_recovery_days": "20.0000", "mrr_recovered_micros": "19980000",
        ]
        for (column, value) in expected { #expect(row[column] == value, "\(column)") }

        let known = try ReportSQL.rows(ledger.db, "grace_hold_recovery", asOf: "2026-03-15T00:00:00Z",
                                       from: "2026-01-01T00:00:00Z", to: "2026-03-31T00:00:00Z", basis: "known")
        let then = try #require(known.first)
        let expectedThen: [String: String] = [
            "episodes_count": "4", "grace_recovered_count": "0", "hold_recovered_count": "1", "open_count": "2",
            "recovery_rate": "0.250000", "median_recovery_days": "20.0000", "mrr_recovered_micros": "9990000",
        ]
        for (column, value) in expectedThen { #expect(then[column] == value, "known \(column)") }
    }
}

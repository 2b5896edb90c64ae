import Foundation
import Postgres
@testable import Reconciliation
import TestSupport
import Testing

/// The Apple database side summed by PostgreSQL counts a row in the period and the timing window of its instant in
/// whole epoch seconds, rounded as `extract(epoch)::int8` rounds (half away from zero), at every edge: the period's
/// start and end and the window's, a little before, at and after each half second.
@Suite struct AppleSourceEdgeTests {
    @Test func cellsCountRowsAtTheEdgesAsTheRoundedInstant() throws {
        let roles = try RoleDatabase.fresh("apple_source_edges")
        let database = try PostgresConnection(configuration: roles.superuser)
        defer { database.close() }
        let subscription = "00000000-0000-4000-8000-000000000031"
        try database.execute("""
            WITH u AS (INSERT INTO app_user (email) VALUES ('edges@example.com') RETURNING id),
                 a AS (INSERT INTO billing_account (user_id) SELECT id FROM u RETURNING id),
                 p AS (INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('EDGE', 'Edge', 'MONTHLY', 'P1M') RETURNING id)
            INSERT INTO subscription (id, provider, billing_account_id, plan_id, status)
            SELECT '\(subscription)', 'APPLE', a.id, p.id, 'ACTIVE' FROM a, p
            """)
        let period = try #require(ReconciliationPeriod(.apple, "2026-02"))
        let periods = [try #require(period.previous), period, try #require(period.next)]
        let window: Int64 = 3_600
        var instants: [Double] = []
        for edge in [period.start, period.start + window, period.end - window, period.end] {
            for offset in [-1.5, -0.5000001, -0.5, -0.4999999, 0, 0.4999999, 0.5, 0.5000001, 1.5] { instants.append(Double(edge) + offset) }
        }
        for (index, instant) in instants.enumerated() {
            try database.execute("""
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                                 currency_code, country_code, product_id, raw_payload, recorded_at)
                VALUES ($1, 'APPLE', 'RENEWED', $2, to_timestamp($3::float8), 9990000, 'USD', 'USA', 'pro.monthly', '{}', '2000-01-01')
                """, [subscription, "APPLE:1:\(index)", String(instant)])
        }
        // The reference: each row's instant as the server rounds it, placed and counted in Swift.
        var expected: [String: AppleCellSides] = [:]
        for row in try database.query("SELECT extract(epoch FROM effective_at)::int8 AS at FROM billing_transaction").rows {
            let at = try row.decode(Int64.self, "at")
            guard let own = periods.first(where: { $0.contains(at) }) else { continue }
            expected[own.label, default: AppleCellSides()].addDatabaseRow(at: at, isTest: false, start: own.start, end: own.end,
                                                                          windowSeconds: window)
        }
        var found: [String: [AppleCell: AppleCellSides]] = [:]
        try AppleSource(database: database, knownAt: Date(), windowSeconds: window).addDatabase(periods, to: &found)
        let cell = AppleCell(product: "pro.monthly", country: "US", currency: "USD", price: 9_990_000)
        #expect(expected[period.label]?.paidNearStart ?? 0 > 0 && expected[period.label]?.paidNearEnd ?? 0 > 0)
        for each in periods { #expect(found[each.label]?[cell] == expected[each.label], "\(each.label)") }
    }
}

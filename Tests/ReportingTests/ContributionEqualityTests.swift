import Foundation
import Postgres
import Reporting
import TestSupport
import Testing

/// Migration 0022 rewrote `report_contribution` (and `report_snapshot`) to be linear in the history; the rows must be
/// exactly those of the definitions it replaced (0017, 0013), installed next to it by `ContributionReference`.
/// Compared as multisets (EXCEPT ALL both ways) on generated worlds at three seeds, both bases, three ranges of months,
/// computed by hand and as build-reports fills them. The hand-computed worlds compare the same way (RepairJobsTests,
/// `ReportSQL.bridge`).
@Suite(.serialized) struct ContributionEqualityTests {
    @Test(arguments: [15, 23, 71] as [UInt64])
    func theLinearContributionReturnsThe0017RowsOnAGeneratedWorld(seed: UInt64) throws {
        let harness = try ReportingHarness("contribution_equality_\(seed)", seed: seed, subscriptions: 500, months: 10)
        let db = harness.database
        // The world must exercise the rules: grace rows (priced by RECOVERED, by their own amount, by the last paid
        // charge), stops, test subscriptions.
        let kinds = try db.query("""
            SELECT count(*) FILTER (WHERE event_type = 'ENTERED_GRACE_PERIOD')::int AS grace,
                   count(*) FILTER (WHERE event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED', 'ENTERED_ON_HOLD'))::int AS stops,
                   count(*) FILTER (WHERE is_test)::int AS tests
            FROM billing_transaction
            """).first
        #expect(try (kinds?.decode(Int.self, "grace") ?? 0) > 0, "grace rows")
        #expect(try (kinds?.decode(Int.self, "stops") ?? 0) > 0, "stop rows")
        #expect(try (kinds?.decode(Int.self, "tests") ?? 0) > 0, "test rows")

        let asOf = harness.options.asOf
        func instant(_ days: Double) -> String { PostgresTimestamp.iso8601(asOf.addingTimeInterval(-days * 86_400)) }
        let ranges: [(asOf: String, first: String, last: String)] = [
            (harness.asOf, "2000-01-01", harness.asOf),       // every month since the first history row
            (instant(47), instant(150), instant(47)),         // an earlier as-of instant, mid-month
            (harness.asOf, instant(120), instant(62)),        // a last month before the as-of month
        ]
        for range in ranges {
            for basis in ["corrected", "known"] {
                let parameters: [any PostgresEncodable] = [range.asOf, range.first, range.last, basis]
                let differences = try ContributionReference.differences(db, parameters)
                #expect(differences.snapshot == 0, "snapshots \(range) \(basis)")
                #expect(differences.contribution == 0, "contributions \(range) \(basis)")
                #expect(try ContributionReference.count(db, "report_contribution", parameters) > 200, "rows \(range) \(basis)")
            }
        }

        // As build-reports fills it: the snapshots read from the run's table, the contributions computed once.
        let parameters: [any PostgresEncodable] = [harness.asOf, "2000-01-01", harness.asOf, "known"]
        try db.execute("BEGIN")
        defer { _ = try? db.execute("ROLLBACK") }
        try SharedReportTables.fill(parameters: parameters, database: db)
        #expect(try ContributionReference.difference(db, "report_contribution_0017", "report_run_contribution", parameters) == 0)
        #expect(try ContributionReference.difference(db, "report_contribution_0017", "report_contribution", parameters) == 0)
    }

    /// The comparison can fail: a contribution that prices a monthly plan at 13 twelfths instead of 12 differs from 0017's.
    @Test func theComparisonSeesADroppedRule() throws {
        let harness = try ReportingHarness("contribution_equality_mutant", seed: 15, subscriptions: 500, months: 10)
        let db = harness.database
        try ContributionReference.install(db)
        let body = try ContributionReference.statement("0017_report_contribution.sql",
                                                       opening: "CREATE OR REPLACE FUNCTION report_contribution(")
        let mutant = body.replacingOccurrences(of: "FUNCTION report_contribution(", with: "FUNCTION report_contribution_mutant(")
            .replacingOccurrences(of: "('P1M', 12)", with: "('P1M', 13)")
        #expect(mutant != body.replacingOccurrences(of: "FUNCTION report_contribution(", with: "FUNCTION report_contribution_mutant("))
        _ = try db.execute(mutant)
        let parameters: [any PostgresEncodable] = [harness.asOf, "2000-01-01", harness.asOf, "corrected"]
        #expect(try ContributionReference.difference(db, "report_contribution_mutant", "report_contribution", parameters) > 0)
    }
}

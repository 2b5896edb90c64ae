import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// A night starts its movements from the night before's (migration 0079; Reports/README.md, "The open month's movements
/// from the night before"): nights of one month, days apart and with history changed between them (a charge in a
/// currency the account never paid in, and the renewals and ends the days between bring), take the stored rows of the
/// unchanged accounts and recompute the others, from a night's or a full run's, and every file equals `--full`'s; a
/// night without stored movements, earlier than the stored ones, of the next month, or after a change in a closed
/// month (its movements windowed from there) computes them all, and equals `--full`'s too.
@Suite(.serialized) struct StoredMovementsTests {
    @Test func aNightOfTheSameMonthStartsFromTheNightBeforesMovementsAndEqualsAFullRun() throws {
        let harness = try ReportingHarness("stored_movements", seed: 79, subscriptions: 400, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        let asOf = try #require(PostgresTimestamp.parse(harness.asOf))
        let day = 86_400.0
        func run(_ name: String, at instant: Date, full: Bool = false) throws -> [String: Any] {
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path,
                                                   "--as-of", PostgresTimestamp.iso8601(instant)] + (full ? ["--full"] : []))
            #expect(code == .succeeded, "\(name): \(summary)")
            return summary
        }
        func expectSame(_ night: String, _ full: String) throws {
            let (a, b) = (try ReportingHarness.files(harness.folder(night)), try ReportingHarness.files(harness.folder(full)))
            #expect(Set(a.keys) == Set(b.keys))
            for file in b.keys.sorted() {
                let same = a[file] == b[file]
                #expect(same, "\(night): \(file) differs from \(full)'s")
            }
        }
        /// The stored movements: their set (but the generation) and a digest of their rows.
        func stored() throws -> String {
            try database.query("""
                SELECT concat_ws(' ', (SELECT concat_ws(' ', first_month, last_month, n, before_at, at) FROM report_stored_movement_set
                                       WHERE basis = 'corrected'),
                                 count(*), md5(string_agg(m::text, '|' ORDER BY m::text)))
                FROM report_stored_movement m WHERE m.basis = 'corrected'
                """).textRows().first?.first.flatMap { $0 } ?? ""
        }
        /// Runs `--full` as of `instant` into `<name>-full`: its files equal the night's, and what it stores what the
        /// night stored (a night that started from the stored rows patches them).
        func expectSameAsFull(_ name: String, at instant: Date) throws {
            let night = try stored()
            _ = try run(name + "-full", at: instant, full: true)
            try expectSame(name, name + "-full")
            #expect(try stored() == night, "\(name): the night's stored movements differ from --full's")
        }
        func storedAt() throws -> Date? {
            try database.query("SELECT at::text FROM report_stored_movement_set WHERE basis = 'corrected'").textRows()
                .first?.first.flatMap { $0 }.flatMap { PostgresTimestamp.parse($0) }
        }
        /// The instant a run's movements started from (its summary's note), nil when it computed them all.
        func since(_ summary: [String: Any]) -> Date? { (summary["movements_since"] as? String).flatMap { PostgresTimestamp.parse($0) } }

        // A full run keeps its last snapshot's movements too; without them a night computes every account's.
        let first = asOf.addingTimeInterval(-9 * day)
        _ = try run("first-full", at: first, full: true)
        #expect(try storedAt() == first, "the full run keeps its movements")
        _ = try database.execute("DELETE FROM report_stored_movement_set")
        let firstNight = try run("first", at: first)
        #expect(since(firstNight) == nil, "no movements were kept: \(firstNight)")
        #expect(try storedAt() == first, "the night keeps its movements")
        let stored = try database.query("SELECT count(*)::int AS n FROM report_stored_movement WHERE basis = 'corrected'")
            .first?.decode(Int.self, "n") ?? 0
        #expect(stored > 100, "\(stored) movement rows kept")
        try expectSame("first", "first-full")

        // Days later, after a charge in a currency the account never paid in: the night starts from the night before's,
        // and equals --full.
        let second = asOf.addingTimeInterval(-4 * day)
        #expect(try database.execute(IncrementalCohortsNightTests.newCurrency.sql, [PostgresTimestamp.iso8601(second)]) == 1)
        let secondNight = try run("second", at: second)
        #expect(since(secondNight) == first, "\(secondNight)")
        #expect(try storedAt() == second)
        try expectSameAsFull("second", at: second)

        // The as-of day itself, after a late expiry in a closed month: the movements from that month on are windowed,
        // none stored used; the same instant again, nothing changed, starts from that night's.
        #expect(try IncrementalSnapshotPartsTests.expireLate(database, asOf: harness.asOf) == 1)
        let thirdNight = try run("third", at: asOf)
        #expect(since(thirdNight) == nil, "\(thirdNight)")
        let again = try run("again", at: asOf)
        #expect(since(again) == asOf, "\(again)")
        try expectSameAsFull("third", at: asOf)
        try expectSame("again", "third-full")

        // Earlier than the stored movements: all computed.
        let earlier = asOf.addingTimeInterval(-2 * day)
        let earlierNight = try run("earlier", at: earlier)
        #expect(since(earlierNight) == nil, "\(earlierNight)")
        try expectSameAsFull("earlier", at: earlier)

        // The next month (its rates the last month's): other snapshots, all computed.
        _ = try database.execute("""
            INSERT INTO fx_rate (month, from_currency, to_currency, rate, source)
            SELECT (month + interval '1 month')::date, from_currency, to_currency, rate, source FROM fx_rate
            WHERE month = (SELECT max(month) FROM fx_rate)
            """)
        let next = asOf.addingTimeInterval(3 * day)
        let nextNight = try run("next", at: next)
        #expect(since(nextNight) == nil, "a night of another month computes them all: \(nextNight)")
        try expectSameAsFull("next", at: next)
        // … and the next night of that month starts from them.
        let nextLater = asOf.addingTimeInterval(5 * day)
        let nextLaterNight = try run("next-later", at: nextLater)
        #expect(since(nextLaterNight) == next, "\(nextLaterNight)")
        try expectSameAsFull("next-later", at: nextLater)
    }
}

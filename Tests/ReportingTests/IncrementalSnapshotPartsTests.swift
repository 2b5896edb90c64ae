import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// The month digest's per-snapshot parts are stored with the spans (migration 0052; Reports/README.md, "Stored snapshot
/// parts"): a night places only the snapshots after the stored ones and those its computed months read, takes the
/// stored parts corrected by the touched subscriptions' old and new spans, stores parts equal to a full run's, and
/// writes files byte-identical to `--full`; the night does read the stored parts (one altered by hand moves the
/// digest), and parts written under another store's generation are not used.
@Suite(.serialized) struct IncrementalSnapshotPartsTests {
    static let parts = """
        SELECT string_agg(concat_ws(':', n, at, contribution_count, contribution_hash_sum, state_count, state_hash_sum), ','
                          ORDER BY n)
        FROM report_stored_snapshot_part WHERE basis = 'corrected'
        """

    /// Inserts a late expiry a day after the earliest paid renewal more than 90 days before `asOf` whose period runs
    /// at least 20 days on (its subscription's contribution spans end early); the rows inserted (1).
    static func expireLate(_ database: PostgresConnection, asOf: String) throws -> Int {
        try database.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'EXPIRED', b.transaction_key || ':late', b.effective_at + interval '1 day', '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND NOT b.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
              AND b.effective_at < $1::timestamptz - interval '90 days' AND b.period_end_at > b.effective_at + interval '20 days'
            ORDER BY b.effective_at, b.transaction_key LIMIT 1
            """, [asOf])
    }

    @Test func aNightCorrectsTheStoredPartsByTheTouchedSubscriptionsAndPlacesOnlyTheLastSnapshots() throws {
        let harness = try ReportingHarness("snapshot_parts", seed: 52, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        func text(_ query: String) throws -> String? {
            let parameters: [any PostgresEncodable] = query.contains("$1") ? [harness.asOf] : []
            return try database.query(query, parameters).textRows().first?.first ?? nil
        }
        func run(_ name: String, full: Bool = false) throws -> [String: Int] {
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path] + (full ? ["--full"] : []))
            #expect(code == .succeeded, "\(summary)")
            return summary["counts"] as? [String: Int] ?? [:]
        }
        func files(_ name: String) throws -> [String: [UInt8]] { try ReportingHarness.files(harness.folder(name)) }
        func expectSame(_ night: String, _ full: String) throws {
            let (a, b) = (try files(night), try files(full))
            #expect(Set(a.keys) == Set(b.keys))
            for file in b.keys.sorted() { #expect(a[file] == b[file], "\(night): \(file) differs from \(full)") }
        }

        let first = try run("first", full: true)
        #expect(first["snapshots_first_placed"] == 1, "a full run places every snapshot: \(first)")
        let snapshots = try #require(Int(text("SELECT count(*) FROM report_stored_snapshot_part WHERE basis = 'corrected'") ?? ""))
        #expect(snapshots > 12, "every complete snapshot's parts are stored")
        let fullParts = try text(Self.parts)

        // Three subscriptions change in closed months, each a different way: a late expiry a day after a charge (its
        // contribution spans end), a purchase found to be a sandbox one (every span gone), and a purchase claimed by
        // another paying subscription's account (its spans' account moves).
        let expired = try Self.expireLate(database, asOf: harness.asOf)
        let paying = """
            SELECT sp.subscription_id FROM report_stored_span sp JOIN subscription s ON s.id = sp.subscription_id
            WHERE sp.basis = 'corrected' AND sp.state IS NULL AND sp.from_at < $1::timestamptz - interval '120 days'
              AND NOT s.is_sandbox AND NOT s.is_test_purchase
            GROUP BY sp.subscription_id ORDER BY sp.subscription_id
            """
        let sandboxed = try database.execute("UPDATE subscription SET is_sandbox = true WHERE id = (\(paying) LIMIT 1)", [harness.asOf])
        let claimed = try database.execute("""
            UPDATE subscription s SET billing_account_id = (SELECT o.billing_account_id FROM subscription o
                                                            WHERE o.billing_account_id IS DISTINCT FROM s.billing_account_id
                                                              AND o.billing_account_id IS NOT NULL ORDER BY o.id LIMIT 1)
            WHERE s.id = (\(paying) OFFSET 1 LIMIT 1)
            """, [harness.asOf])
        #expect(expired == 1 && sandboxed == 1 && claimed == 1)

        let night = try run("night")
        #expect(night["spans_recomputed"] == 3, "\(night)")
        // The changed months are recomputed, so their snapshots (and the one before the first) are placed too.
        #expect((2..<snapshots).contains(night["snapshots_first_placed"] ?? 0), "\(night)")
        let nightParts = try text(Self.parts)
        #expect(nightParts != fullParts, "the changes moved the parts")
        _ = try run("night-full", full: true)
        try expectSame("night", "night-full")
        #expect(try text(Self.parts) == nightParts, "the night's corrected parts are the ones a full run places")

        // The night reads the stored parts: one altered by hand (the last complete snapshot's) moves the digest of its
        // month, so the next night reuses fewer rows than a quiet one (and still writes the full run's files).
        let quiet = try run("quiet")
        // A night with nothing new places the open month's snapshot and the one before it (the last complete one: its
        // movements' window and subscribers' previous states), no earlier one.
        #expect(quiet["snapshots_first_placed"] == snapshots && quiet["spans_recomputed"] == 0, "\(quiet)")
        _ = try database.execute("""
            UPDATE report_stored_snapshot_part SET contribution_hash_sum = contribution_hash_sum + 1
            WHERE basis = 'corrected' AND n = (SELECT max(n) FROM report_stored_snapshot_part WHERE basis = 'corrected')
            """)
        let altered = try run("altered")
        #expect((altered["rows_reused"] ?? 0) < (quiet["rows_reused"] ?? 0), "quiet \(quiet), altered \(altered)")
        try expectSame("altered", "night-full")

        // Parts written under another generation (another run stored spans since) are not used: every snapshot placed.
        _ = try database.execute("UPDATE report_stored_snapshot_part SET generation = generation - 1 WHERE basis = 'corrected'")
        let stale = try run("stale")
        #expect(stale["snapshots_first_placed"] == 1, "\(stale)")
        try expectSame("stale", "night-full")
        #expect(try text(Self.parts) == nightParts, "the night stored the parts it placed")
    }
}

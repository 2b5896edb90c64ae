import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// A night stores its spans on a connection of its own while the files are written (`SpanStorer`; Reports/README.md,
/// "Storing only the spans that differ, beside the files"): it commits only once every file is written, and it stores
/// nothing when another run stored spans after this one read the store (that run's store stays whole; the next night
/// recomputes the change).
@Suite(.serialized) struct SpanStorerTests {
    /// A late renewal retry of one subscription, a minute after its latest paid renewal: the change a night stores.
    static let lateRetry = """
        INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, expires_at,
                                         amount_micros, currency_code, country_code, product_id, plan_id, billing_period,
                                         period_start_at, period_end_at, raw_payload)
        SELECT b.subscription_id, b.provider, b.event_type, 'late-retry:' || b.id, b.effective_at + interval '1 minute',
               b.expires_at, b.amount_micros, b.currency_code, b.country_code, b.product_id, b.plan_id, b.billing_period,
               b.period_start_at, b.period_end_at, '{}'::jsonb
        FROM billing_transaction b
        WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND NOT b.is_test
        ORDER BY b.effective_at DESC, b.id LIMIT 1
        RETURNING subscription_id::text
        """

    /// The stored set's generation and the changed subscription's stored digest (its row count).
    static func stored(_ database: PostgresConnection, _ subscription: String) throws -> (generation: Int, rows: Int) {
        let row = try database.query("""
            SELECT (SELECT generation FROM report_stored_span_set WHERE basis = 'corrected'),
                   (SELECT row_count FROM report_stored_span_input WHERE basis = 'corrected' AND subscription_id = $1::uuid)
            """, [subscription]).textRows().first
        return (Int(row?[0] ?? "") ?? -1, Int(row?[1] ?? "") ?? -1)
    }

    @Test func aNightThatFailsAfterItsFilesBeganStoresNothing() throws {
        let harness = try ReportingHarness("storer_fail", seed: 53, subscriptions: 300, months: 6)
        let broken = ReportDefinition(name: "broken", sheet: "Broken", summary: "test", required: true)
        // (it reads the movements, so the job's session computes it, after every other file)
        let sql = try harness.sqlFolder("sql", extra: ["broken.sql": """
            SELECT $4::text AS currency, 1 / (count(*) - count(*)) AS broken FROM report_run_movement($1, $2, $3, $5)
            """])
        let good = try harness.sqlFolder("good")
        func run(_ name: String, _ folder: URL, catalogue: [ReportDefinition] = ReportCatalogue.standard, full: Bool = false) throws
            -> (JobExitCode, [String: Any]) {
            try harness.run(["--sql-dir", folder.path, "--out", harness.folder(name).path] + (full ? ["--full"] : []), catalogue: catalogue)
        }
        #expect(try run("first", good, full: true).0 == .succeeded)
        let subscription = try #require(try harness.database.query(Self.lateRetry).textRows().first?.first ?? nil)
        let before = try Self.stored(harness.database, subscription)
        let (code, summary) = try run("failed", sql, catalogue: ReportCatalogue.standard + [broken])
        #expect(code != .succeeded, "\(summary)")
        #expect(try Self.stored(harness.database, subscription) == before, "the failed night stored nothing")
        let (nightCode, night) = try run("night", good)
        #expect(nightCode == .succeeded, "\(night)")
        let after = try Self.stored(harness.database, subscription)
        #expect(after.generation == before.generation + 1 && after.rows == before.rows + 1, "the next night stored the change")
        #expect(try run("full", good, full: true).0 == .succeeded)
        #expect(try ReportingHarness.files(harness.folder("night")) == ReportingHarness.files(harness.folder("full")))
    }

    @Test func aNightWhoseStoreMovedMeanwhileStoresNothing() throws {
        let harness = try ReportingHarness("storer_moved", seed: 54, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        func run(_ name: String, full: Bool = false) throws -> (JobExitCode, [String: Any]) {
            try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path] + (full ? ["--full"] : []))
        }
        #expect(try run("first", full: true).0 == .succeeded)
        let subscription = try #require(try harness.database.query(Self.lateRetry).textRows().first?.first ?? nil)
        let before = try Self.stored(harness.database, subscription)
        // Another run's store, committed after the night read the store and before it stores: the night's store waits
        // for this transaction's lock, then finds a generation it did not read.
        let other = try PostgresConnection(configuration: try TestDatabase.serverConfiguration().withDatabase(harness.databaseName))
        defer { other.close() }
        try other.execute("BEGIN")
        try other.execute("LOCK TABLE report_stored_span_set IN SHARE ROW EXCLUSIVE MODE")
        try other.execute("UPDATE report_stored_span_set SET generation = generation + 1 WHERE basis = 'corrected'")
        let box = NightBox { try? run("moved") }
        box.start()
        var waiting = false
        for _ in 0..<600 where !waiting {
            waiting = try harness.database.query("""
                SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                                 AND query LIKE 'LOCK TABLE report_stored_span_set IN SHARE ROW EXCLUSIVE MODE%')
                """).textRows().first?.first == "t"
            if !waiting { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(waiting, "the night's store waited for the other run's")
        try other.execute("COMMIT")
        let result = box.wait()
        #expect(result?.0 == .succeeded, "\(result?.1 ?? [:])")
        #expect(try Self.stored(harness.database, subscription) == (before.generation + 1, before.rows),
                "the other run's store stays whole: the night stored nothing")
        let (code, night) = try run("night")
        #expect(code == .succeeded && (night["counts"] as? [String: Int])?["spans_recomputed"] ?? 0 >= 1, "\(night)")
        #expect(try Self.stored(harness.database, subscription) == (before.generation + 2, before.rows + 1), "the next night stored it")
        #expect(try run("full", full: true).0 == .succeeded)
        #expect(try ReportingHarness.files(harness.folder("moved")) == ReportingHarness.files(harness.folder("full")))
        #expect(try ReportingHarness.files(harness.folder("night")) == ReportingHarness.files(harness.folder("full")))
    }
}

/// A night run on a thread of its own, its result handed to the test's thread.
final class NightBox: @unchecked Sendable {
    private let condition = NSCondition()
    private let body: () -> (JobExitCode, [String: Any])?
    private var result: (JobExitCode, [String: Any])??
    init(_ body: @escaping () -> (JobExitCode, [String: Any])?) { self.body = body }
    func start() {
        Thread { [self] in
            let value = body()
            condition.lock(); result = .some(value); condition.broadcast(); condition.unlock()
        }.start()
    }
    func wait() -> (JobExitCode, [String: Any])? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result ?? nil
    }
}

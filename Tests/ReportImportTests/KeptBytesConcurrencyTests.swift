import Foundation
import Postgres
import StoreExports
@testable import ReportImport
import Testing

/// Byte-identical Google earnings files staged under two report keys at once, each in its own transaction on its own
/// connection: both are staged with their facts, the bytes are kept once, and each gives its orders back. A file's
/// kept bytes being deleted while an import of the same bytes runs: the import waits, then keeps them again.
@Suite(.serialized) struct KeptBytesConcurrencyTests {
    static let fixture = "earnings_201911_1234567890123-0.csv"
    static let names = ["earnings_201911_1234567890123-0.csv", "earnings_201911_1234567890123-1.csv"]

    /// Runs `body` on a thread of its own; `wait` gives its result.
    final class Background<T>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let body: () throws -> T
        private var result: Result<T, any Error>?

        init(_ body: @escaping () throws -> T) {
            self.body = body
            let thread = Thread { [self] in
                result = Result { try self.body() }
                done.signal()
            }
            thread.start()
        }

        func wait() throws -> T {
            done.wait()
            guard let result else { throw PostgresError(.usage, message: "no result") }
            return try result.get()
        }
    }

    /// Waits (up to a minute, polling) until `count` backends of the test database wait for a lock; the lock types
    /// they wait for.
    static func waitForLockWaits(_ count: Int, _ harness: ImportHarness) throws -> [String] {
        for _ in 0..<600 {
            let types = try harness.database.query("""
                SELECT l.locktype FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE NOT l.granted AND a.datname = current_database() ORDER BY 1
                """).rows.map { try $0.decode(String.self, "locktype") }
            if types.count >= count { return types }
            usleep(100_000)
        }
        Issue.record("fewer than \(count) lock waits after a minute")
        return []
    }

    static func loader(_ harness: ImportHarness) throws -> ReportLoader {
        ReportLoader(database: try PostgresConnection(configuration: harness.configuration), actor: "test")
    }

    /// The bytes' rows in `report_file_content`, the distinct hashes among them, and each file's facts' row count
    /// against its `row_count`.
    static func expectBothStagedOnce(_ harness: ImportHarness, names: [String]) throws {
        #expect(try harness.scalar("SELECT count(DISTINCT sha256) AS n FROM report_file_content") == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file_content") == 1, "a 1 MiB chunk")
        #expect(try harness.scalar("SELECT count(DISTINCT kept_sha256) AS n FROM report_file WHERE kind = 'googleEarnings'") == 1)
        for name in names {
            let row = try #require(try harness.database.query("""
                SELECT f.row_count::int8 AS rows, (SELECT coalesce(sum(g.row_count), 0)::int8 FROM google_earnings_fact g
                                                   WHERE g.report_file_id = f.id) AS facts
                FROM report_file f WHERE f.file_name = $1 AND f.replaced_by IS NULL
                """, [name]).first, "\(name) staged")
            let rows = try row.decode(Int64.self, "rows")
            let facts = try row.decode(Int64.self, "facts")
            #expect(rows > 0 && rows == facts, "\(name)")
        }
        try GoogleEarningsStagingTests.expectKeptBytes(harness, files: names.map { harness.folder.appendingPathComponent($0) })
        let file = harness.folder.appendingPathComponent(names[0])
        let parsed = try GoogleEarningsParser.parse([UInt8](try Data(contentsOf: file)), file: names[0])
        let order = try #require(parsed.first?.orderID)
        let rows = parsed.filter { $0.orderID == order }.count
        let (code, lines) = harness.showOrder(order)
        #expect(code == .succeeded && lines.count == 1 + names.count * rows, "\(lines)")
        for name in names {
            let shown = lines.filter { $0.hasPrefix(name + ",") }.count
            #expect(shown == rows, "\(name): \(lines)")
        }
    }

    func copyFixtures(_ harness: ImportHarness) throws {
        for name in Self.names {
            try FileManager.default.copyItem(at: GoogleEarningsStagingTests.earningsFixture(Self.fixture),
                                             to: harness.folder.appendingPathComponent(name))
        }
    }

    /// The first import is held after keeping the bytes, before its commit (a third connection holds `report_file`
    /// in SHARE mode, so its file's row waits); the second, of the same bytes under another report key, then waits
    /// for the hash's lock, not for the first's chunks (which it would then collide with). Released, both commit.
    @Test func twoImportsOfTheSameBytesAtOnceBothStageThemKeptOnce() throws {
        let harness = try ImportHarness("kept_bytes_two_imports")
        try copyFixtures(harness)
        let barrier = try PostgresConnection(configuration: harness.configuration)
        defer { barrier.close() }
        _ = try barrier.execute("BEGIN")
        _ = try barrier.execute("LOCK TABLE report_file IN SHARE MODE")
        let loaders = try [Self.loader(harness), Self.loader(harness)]
        defer { loaders.forEach { $0.database.close() } }
        let paths = Self.names.map { harness.folder.appendingPathComponent($0).path }
        let first = Background { try loaders[0].loadGoogleEarnings(paths[0]).outcome }
        #expect(try Self.waitForLockWaits(1, harness) == ["relation"], "the first import holds its kept bytes, uncommitted")
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file_content") == 0)
        let second = Background { try loaders[1].loadGoogleEarnings(paths[1]).outcome }
        #expect(try Self.waitForLockWaits(2, harness) == ["advisory", "relation"], "the second waits for the hash's lock")
        _ = try barrier.execute("ROLLBACK")
        let outcomes = [try first.wait(), try second.wait()]
        #expect(outcomes.allSatisfy { if case .imported = $0 { true } else { false } }, "\(outcomes)")
        #expect(try harness.scalar("SELECT count(DISTINCT report_key) AS n FROM report_file WHERE kind = 'googleEarnings'") == 2)
        try Self.expectBothStagedOnce(harness, names: Self.names)
    }

    /// A delete of the only file naming the bytes holds their lock, the bytes deleted, uncommitted; an import of the
    /// same bytes under another key waits for it, then finds them gone and keeps them again (it would otherwise have
    /// found them, kept none, and been left without bytes once the delete committed).
    @Test func anImportWaitsForADeleteOfItsBytesThenKeepsThem() throws {
        let harness = try ImportHarness("kept_bytes_import_delete")
        try copyFixtures(harness)
        let paths = Self.names.map { harness.folder.appendingPathComponent($0).path }
        let loader = try Self.loader(harness)
        defer { loader.database.close() }
        #expect(try loader.loadGoogleEarnings(paths[0]).outcome != .unchanged)
        let deleter = try PostgresConnection(configuration: harness.configuration)
        defer { deleter.close() }
        _ = try deleter.execute("BEGIN")
        _ = try deleter.execute("DELETE FROM report_file WHERE file_name = $1", [Self.names[0]])
        let left = try #require(try deleter.query("SELECT count(*) AS n FROM report_file_content").first).decode(Int64.self, "n")
        #expect(left == 0)
        let second = Background { try loader.loadGoogleEarnings(paths[1]).outcome }
        #expect(try Self.waitForLockWaits(1, harness) == ["advisory"], "the import waits for the delete")
        _ = try deleter.execute("COMMIT")
        #expect(try second.wait() != .unchanged)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file WHERE kind = 'googleEarnings'") == 1)
        try GoogleEarningsStagingTests.expectKeptBytes(harness, files: [harness.folder.appendingPathComponent(Self.names[1])])
    }

    /// The delete of kept bytes refuses REPEATABLE READ (its snapshot could miss a file an import just committed).
    @Test func aDeleteOfKeptBytesIsRefusedAtRepeatableRead() throws {
        let harness = try ImportHarness("kept_bytes_delete_repeatable_read")
        try copyFixtures(harness)
        #expect(try harness.run().0 == .succeeded)
        #expect(throws: (any Error).self) {
            try harness.database.transaction(isolation: "REPEATABLE READ") { db in
                _ = try db.execute("DELETE FROM report_file WHERE file_name = $1", [Self.names[0]])
            }
        }
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file WHERE kind = 'googleEarnings'") == 2)
        _ = try harness.database.execute("DELETE FROM report_file")
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file_content") == 0)
    }
}

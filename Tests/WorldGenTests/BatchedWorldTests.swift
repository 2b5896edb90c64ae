import Foundation
import Postgres
import StoreTruth
import TestSupport
import Testing
@testable import WorldGen

/// `WorldWriter.generateAndLoad` (batches, streamed truth, reports built batch by batch) writes the same
/// folder (truth, reports, manifest) and database as `WorldWriter.write` of the in-memory world, and is
/// deterministic in its seed.
@Suite(.serialized) struct BatchedWorldTests {
    static let options = WorldOptions(seed: 77, subscriptions: 2_000, months: 6, faultShares: WorldOptions.allFaults(0.04))
    static let shares = ReportDiscrepancyShares.all(0.02)

    /// Every index and constraint definition of the world tables (the load drops and recreates some).
    static func schema(_ database: PostgresConnection) throws -> [String] {
        let list = "{" + WorldTestSupport.tables.joined(separator: ",") + "}"
        return try database.query("""
            SELECT indexrelid::regclass::text || ': ' || pg_get_indexdef(indexrelid) AS line FROM pg_index
             WHERE indrelid::regclass::text = ANY($1::text[])
            UNION ALL
            SELECT conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) || ' ' || convalidated::text
              FROM pg_constraint WHERE conrelid::regclass::text = ANY($1::text[])
            ORDER BY 1
            """, [list]).rows.map { try $0.decode(String.self, "line") }
    }

    func batched(_ options: WorldOptions, run: Int, root: URL) throws -> (files: [String: Data], dump: [String: [String]]) {
        let (_, database) = try TestDatabase.migrated("test_worldgen_batched_\(run)")
        defer { database.close() }
        let folder = root.appendingPathComponent("batched\(run)")
        var seen: [Int] = []
        let manifest = try WorldWriter.generateAndLoad(options, to: folder, database: database, batchSize: 300, reportShares: Self.shares) {
            seen.append($0)
        }
        #expect(seen == [300, 600, 900, 1_200, 1_500, 1_800, 2_000])
        let (_, reference) = try TestDatabase.migrated("test_worldgen_batched_schema")
        defer { reference.close() }
        #expect(try Self.schema(database) == Self.schema(reference))
        #expect(try Self.schema(database).count > 40)
        let truth = try StoreTruthFolder.read(from: folder)
        #expect(truth.apple.subscriptions.count == manifest.counts["apple_subscriptions"])
        #expect(truth.apple.notifications.count == manifest.counts["apple_notifications"])
        #expect(truth.google.subscriptions.count == manifest.counts["google_tokens"])
        #expect(truth.google.voidedPurchases.count == manifest.counts["google_voided"])
        #expect(truth.reportFiles.contains { $0.hasPrefix("google/sales/") })
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".notification-runs").path))
        return (try ReportDeterminismTests.tree(folder), try WorldTestSupport.dump(database))
    }

    @Test func batchedPathEqualsInMemoryPath() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("worldgen-batched-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, database) = try TestDatabase.migrated("test_worldgen_batched_memory")
        defer { database.close() }
        let memoryFolder = root.appendingPathComponent("memory")
        try WorldWriter.write(try World.generate(Self.options), to: memoryFolder, database: database, reportShares: Self.shares)
        let memory = (files: try ReportDeterminismTests.tree(memoryFolder), dump: try WorldTestSupport.dump(database))
        let first = try batched(Self.options, run: 0, root: root)
        #expect(memory.files.keys.contains("manifest.json"))
        #expect(memory.files.keys.contains { $0.hasPrefix("reports/google/earnings/") })
        #expect(memory.files.keys.contains { $0.hasPrefix("reports/apple/finance/") })
        #expect(Set(first.files.keys) == Set(memory.files.keys))
        for (path, data) in memory.files { #expect(first.files[path] == data, "\(path) differs") }
        for table in WorldTestSupport.tables { #expect(first.dump[table] == memory.dump[table], "\(table) differs") }
        let manifest = try JSONDecoder().decode(WorldManifest.self, from: try #require(memory.files["manifest.json"]))
        #expect(manifest.reportDiscrepancies?.contains { $0.kind == .missingInDatabase } == true)
        #expect(!manifest.faults.isEmpty)

        let again = try batched(Self.options, run: 1, root: root)
        #expect(again.files == first.files)
        #expect(again.dump == first.dump)
        var other = Self.options
        other.seed = 78
        let different = try batched(other, run: 2, root: root)
        #expect(different.files["apple-subscriptions.jsonl"] != first.files["apple-subscriptions.jsonl"])
        #expect(different.dump["subscription"] != first.dump["subscription"])
    }
}

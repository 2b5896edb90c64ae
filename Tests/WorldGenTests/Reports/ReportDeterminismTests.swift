import Foundation
import Postgres
import TestSupport
import Testing
@testable import WorldGen

/// Same seed → byte-identical report files (zips included); WorldWriter writes them and applies the database side.
@Suite(.serialized) struct ReportDeterminismTests {
    static func tree(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        for path in paths {
            var directory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &directory), !directory.boolValue {
                result[path] = try Data(contentsOf: url)
            }
        }
        return result
    }

    @Test func sameSeedGivesByteIdenticalReportFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("worldgen-reports-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        var trees: [[String: Data]] = []
        for (run, seed) in [(0, UInt64(31)), (1, UInt64(31)), (2, UInt64(32))] {
            let world = try World.generate(WorldOptions(seed: seed, subscriptions: 400, months: 3))
            let folder = root.appendingPathComponent("run\(run)")
            try StoreReports.write(world, to: folder, shares: .all(0.03))
            trees.append(try Self.tree(folder.appendingPathComponent("reports")))
        }
        #expect(trees[0].keys.contains { $0.hasSuffix(".zip") })
        #expect(trees[0] == trees[1])
        #expect(trees[0] != trees[2])
        let earnings = try #require(trees[0].keys.first { $0.hasPrefix("google/earnings/") })
        #expect(trees[0][earnings]?.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
    }

    @Test func worldWriterWritesReportsManifestAndDeletesMissingRows() throws {
        let world = try World.generate(WorldOptions(seed: 37, subscriptions: 300, months: 3))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worldgen-reports-db-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, database) = try TestDatabase.migrated("test_worldgen_reports")
        defer { database.close() }
        let shares = ReportDiscrepancyShares.all(0.05)
        try WorldWriter.write(world, to: folder, database: database, reportShares: shares)
        let reports = try StoreReports.render(world, shares: shares)
        let manifest = try JSONDecoder().decode(WorldManifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
        #expect(manifest.reportDiscrepancies == reports.discrepancies)
        #expect(try Self.tree(folder.appendingPathComponent("reports")) == reports.files.mapValues { Data($0) })
        let keys = try database.query("SELECT transaction_key FROM billing_transaction").rows.map { try $0.decode(String.self, "transaction_key") }
        let missing = Set(reports.keysMissingFromDatabase)
        #expect(!missing.isEmpty)
        #expect(missing.isDisjoint(with: keys))
        #expect(keys.count + missing.count == world.manifest.counts["billing_transaction"])
        let present = Set(reports.discrepancies.filter { [.missingInReport, .amountMismatch, .duplicate, .testPurchaseExcluded].contains($0.kind) }
            .map(\.transactionKey))
        #expect(present.isSubset(of: Set(keys)))
        let refunds = Set(reports.discrepancies.filter { $0.kind == .refundMissingInDatabase }.map(\.transactionKey))
        #expect(!refunds.isEmpty && refunds.isDisjoint(with: keys))
    }
}

import Foundation
import JobKit
import Postgres
@testable import ReportImport
import StoreExports
import TestSupport
import Testing

/// Every bad report file the project knows — the parsers' corpus (StoreExportsTests/Fixtures/malformed) and the
/// importer's own (Fixtures/bad) — goes through `import-exports` into a database that already holds the good reports
/// under the same names: each is rejected with file, line, column and reason, and the database is byte-identical
/// before and after (no partial import, no correction applied).
@Suite(.serialized) struct MalformedImportTests {
    /// A bad file and the report name it is imported under.
    struct BadFile: CustomStringConvertible {
        let source: URL
        let importedAs: String
        var description: String { source.lastPathComponent + " as " + importedAs }
    }

    /// The report name each parser corpus prefix stands for (the good fixture its files were derived from).
    static let reportNames: [(prefix: String, name: String)] = [
        ("afr-", "45545510_0914_CH.txt"), ("gz-", "45545510_0914_CH.txt.gz"), ("pay-", "financial_report.csv"),
        ("sub-", "Subscriber_85000000_20251103.txt"), ("ss-", "S_D_85000000_20251103.txt"),
        ("ssn-", "Subscription_85000000_20251103.txt"), ("sev-", "Subscription_Event_85000000_20251103.txt"),
        ("ge-", "earnings_201911_1234567890123-0.csv"), ("gs-", "salesreport_202511.csv"),
        ("zip-", "earnings_201911_1234567890123-0.zip"),
    ]

    static func corpus() throws -> [BadFile] {
        let manager = FileManager.default
        let parsers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StoreExportsTests/Fixtures/malformed")
        var files: [BadFile] = []
        for name in try manager.contentsOfDirectory(atPath: parsers.path).sorted() {
            let reportName = try #require(reportNames.first { name.hasPrefix($0.prefix) }?.name, "no report name for \(name)")
            files.append(BadFile(source: parsers.appendingPathComponent(name), importedAs: reportName))
        }
        let own = try ImportHarness.fixtures().appendingPathComponent("bad")
        for entry in try manager.contentsOfDirectory(atPath: own.path).sorted() {
            let path = own.appendingPathComponent(entry)
            var folder: ObjCBool = false
            _ = manager.fileExists(atPath: path.path, isDirectory: &folder)
            if folder.boolValue {
                for name in try manager.contentsOfDirectory(atPath: path.path) {
                    files.append(BadFile(source: path.appendingPathComponent(name), importedAs: name))
                }
            } else {
                files.append(BadFile(source: path, importedAs: entry))
            }
        }
        return files
    }

    /// Every public table except the run bookkeeping (`job_run`, `schema_migration`), each as an MD5 over its rows
    /// in text form, ordered.
    static func databaseDigest(_ db: PostgresConnection) throws -> [String: String] {
        let tables = try db.query("""
            SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('job_run', 'schema_migration')
            """).rows.map { try $0.decode(String.self, "tablename") }
        var digest: [String: String] = [:]
        for table in tables {
            let row = try #require(try db.query(
                "SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS d FROM \(table) t").first)
            digest[table] = try row.decode(String.self, "d")
        }
        return digest
    }

    @Test func everyBadFileIsRejectedWithItsPositionAndTheDatabaseIsUnchanged() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count >= 50, "the corpus has \(corpus.count) files")
        let kinds = Set(corpus.compactMap { StoreReportKind(fileName: $0.importedAs) })
        #expect(kinds.count == StoreReportKind.allCases.count, "every report kind has bad files: \(kinds)")
        #expect(corpus.contains { $0.importedAs.hasSuffix(".gz") } && corpus.contains { $0.importedAs.hasSuffix(".zip") })

        let harness = try ImportHarness("malformed_corpus")
        try harness.addGood()
        let (goodCode, goodCounts, _) = try harness.run()
        #expect(goodCode == .succeeded)
        #expect(goodCounts["files_imported"] == 9)
        let before = try Self.databaseDigest(harness.database)
        #expect(before["report_file"]?.hasPrefix("9:") == true)
        let manager = FileManager.default
        for bad in corpus {
            for name in try manager.contentsOfDirectory(atPath: harness.folder.path) {
                try manager.removeItem(at: harness.folder.appendingPathComponent(name))
            }
            let target = harness.folder.appendingPathComponent(bad.importedAs)
            try manager.copyItem(at: bad.source, to: target)
            let kind = try #require(StoreReportKind(fileName: bad.importedAs))
            let expected = try #require(rejection { try ReportReader.read(FoundReportFile(path: target.path, kind: kind)) },
                                        "\(bad) parses")

            let (code, counts, line) = try harness.run()
            #expect(code == .failed, "\(bad): \(line)")
            #expect(counts["files_rejected"] == 1 && counts["files_imported"] == nil && counts["files_replaced"] == nil, "\(bad): \(line)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let error = try #require(summary["error"] as? String, "\(bad): \(line)")
            #expect(error == "rejected 1 file(s): \(expected.description)", "\(bad)")
            #expect(expected.file == bad.importedAs || expected.file.hasPrefix(bad.importedAs + "/"), "\(bad): \(expected)")
            #expect(expected.line >= 1 && expected.column >= 1 && !expected.reason.isEmpty, "\(bad): \(expected)")
            #expect(try Self.databaseDigest(harness.database) == before, "\(bad) changed the database")
        }
    }

    /// The `StoreReportError` `body` throws, if any.
    func rejection(_ body: () throws -> Any) -> StoreReportError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? StoreReportError
        }
    }
}

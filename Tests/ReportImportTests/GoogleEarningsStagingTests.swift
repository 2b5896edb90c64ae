import Archive
import Foundation
import JobKit
@testable import ReportImport
import StoreExports
import TestSupport
import Testing
import WorldGen

/// What `import-exports` stages from Google earnings files — the facts (each a run of one order and side folded), the
/// `report_file` rows and the exchange rates taken from them — is pinned by digests computed from the rows the
/// per-row staging wrote (before migration 0033): those rows, staged by the earlier import, folded into facts by
/// 0033's own SQL, give these digests; the importer's fold must give the same. The fixtures (a quoted multi-line
/// title, every transaction type, the column variants of 2016, 2019 and 2025) and a generated world's earnings zips.
/// The file itself is kept as its bytes, byte for byte, and gives an order's rows back (`--show-order`).
@Suite(.serialized) struct GoogleEarningsStagingTests {
    /// Every staged fact of the Google earnings import, its files and the rates, as one MD5 (the file id left out: it
    /// is a sequence number).
    static func stagedDigest(_ harness: ImportHarness) throws -> String {
        let sql = """
            SELECT md5(
                (SELECT coalesce(string_agg(concat_ws('|', f.report_key, g.seq, g.order_id, g.side, g.gross_micros, g.fee_micros,
                        g.tax_micros, g.charge_count, g.row_count, g.currency, g.country, g.product_id, coalesce(g.refund_type, '∅'),
                        g.first_at), E'\\n' ORDER BY f.report_key, g.seq), '')
                 FROM google_earnings_fact g JOIN report_file f ON f.id = g.report_file_id)
                || (SELECT coalesce(string_agg(concat_ws('|', kind, provider, file_name, report_key, content_sha256, period, region,
                        vendor, row_count, replaced_by IS NULL), E'\\n' ORDER BY report_key), '')
                    FROM report_file WHERE kind = 'googleEarnings')
                || (SELECT coalesce(string_agg(concat_ws('|', month, from_currency, to_currency, rate, source), E'\\n'
                        ORDER BY month, from_currency, to_currency), '') FROM fx_rate)) AS d
            """
        return try #require(try harness.database.query(sql).first).decode(String.self, "d")
    }

    /// The digests of the worlds at seeds 3, 7 and 11 (the per-row staging's rows, folded by migration 0033).
    static let worldDigests: [UInt64: String] = [3: "a2bf6c52e41985d1ea77e25772466214", 7: "1074259869315bc53974286ff3e50a92",
                                                         11: "4e25dc13e112ec4695fb6f9944b5d25a"]

    static func earningsFixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StoreExportsTests/Fixtures/google/" + name)
    }

    /// A harness that has imported the one earnings fixture `earnings_201911_1234567890123-0.csv` (under `database`).
    static func stagedFixture(_ database: String) throws -> ImportHarness {
        let harness = try ImportHarness(database)
        let name = "earnings_201911_1234567890123-0.csv"
        try FileManager.default.copyItem(at: earningsFixture(name), to: harness.folder.appendingPathComponent(name))
        let (code, _, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        return harness
    }

    /// Records, in one transaction, a Google earnings `report_file` (key `google:earnings:test`) counting `rows` rows,
    /// with a copy of file `source`'s facts renumbered by `seq` (an SQL expression of `seq`) when given, and naming
    /// kept bytes of `keptSize` (the first earnings file's hash) when given: the commit runs the per-file checks.
    static func addFile(_ harness: ImportHarness, rows: Int, copyFactsFrom source: Int64?, seq: String = "seq",
                        keptSize: Int64? = nil) throws {
        try harness.database.transaction { db in
            let id = try #require(try db.query("SELECT nextval(pg_get_serial_sequence('report_file', 'id')) AS id").first)
                .decode(Int64.self, "id")
            if let source {
                _ = try db.execute("""
                    INSERT INTO google_earnings_fact SELECT $1, \(seq), order_id, side, gross_micros, fee_micros, tax_micros,
                        charge_count, row_count, currency, country, product_id, refund_type, first_at
                    FROM google_earnings_fact WHERE report_file_id = $2
                    """, [id, source])
            }
            _ = try db.execute("""
                INSERT INTO report_file (id, kind, provider, file_name, report_key, content_sha256, period, row_count,
                                         kept_sha256, kept_size)
                SELECT $1, 'googleEarnings', 'google', 'x.csv', 'google:earnings:test', repeat('0', 64), '2019-11', $2,
                       CASE WHEN $3::int8 IS NULL THEN NULL ELSE kept_sha256 END, $3::int8
                FROM report_file WHERE kind = 'googleEarnings' LIMIT 1
                """, [id, rows, keptSize])
        }
    }

    /// Every staged earnings file's kept bytes are the file's, byte for byte.
    static func expectKeptBytes(_ harness: ImportHarness, files: [URL]) throws {
        for file in files {
            let row = try #require(try harness.database.query("""
                SELECT encode(string_agg(c.bytes, ''::bytea ORDER BY c.chunk), 'hex') AS kept, f.kept_size
                FROM report_file f JOIN report_file_content c ON c.sha256 = f.kept_sha256
                WHERE f.file_name = $1 GROUP BY f.kept_size
                """, [file.lastPathComponent]).first, "\(file.lastPathComponent)")
            let bytes = [UInt8](try Data(contentsOf: file))
            #expect(try row.decode(Int64.self, "kept_size") == Int64(bytes.count))
            #expect(try row.decode(String.self, "kept") == bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(),
                    "\(file.lastPathComponent)")
        }
    }

    static let fixtureNames = ["earnings_201604_1234567890123-0.csv", "earnings_201911_1234567890123-0.csv",
                               "earnings_202501_1234567890123-1.csv"]

    @Test func theFixturesStageAsThePerRowStagingStagedThem() throws {
        let harness = try ImportHarness("earnings_staged_fixtures")
        for name in Self.fixtureNames {
            try FileManager.default.copyItem(at: Self.earningsFixture(name), to: harness.folder.appendingPathComponent(name))
        }
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["google_earnings_imported"] == 3, "\(line)")
        let digest = try Self.stagedDigest(harness)
        #expect(digest == "ff2ff344ef1b92bc2e035b46763cce17", "\(digest)")
        try Self.expectKeptBytes(harness, files: Self.fixtureNames.map { harness.folder.appendingPathComponent($0) })
    }

    /// `--show-order` prints an order's rows, read back from the kept file: every row of the order in the file, in
    /// file order, with its line, type and amounts as the whole-file parser reads them.
    @Test func anOrdersRowsAreReadBackFromTheKeptFile() throws {
        let harness = try ImportHarness("earnings_show_order")
        let name = "earnings_201911_1234567890123-0.csv"
        let file = harness.folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.earningsFixture(name), to: file)
        #expect(try harness.run().0 == .succeeded)
        let parsed = try GoogleEarningsParser.parse([UInt8](try Data(contentsOf: file)), file: name)
        let order = try #require(parsed.first { row in parsed.filter { $0.orderID == row.orderID }.count > 2 }?.orderID)
        let expected = parsed.filter { $0.orderID == order }
        let (code, lines) = harness.showOrder(order)
        #expect(code == .succeeded && lines.count == 1 + expected.count, "\(lines)")
        #expect(lines == [ShowOrder.header] + expected.map { ([name] + ShowOrder.columns($0)).map(ShowOrder.csv).joined(separator: ",") })
        #expect(lines.count > 3 && lines[1].hasPrefix(name + ",\(expected[0].line)," + order + ","), "\(lines)")
        let (missing, missingLines) = harness.showOrder("GPA.0000-0000-0000-00000")
        #expect(missing == .thresholdBreached && missingLines.isEmpty, "\(missingLines)")
        // A corrected file replaces it: the first file's rows are still shown (from its kept bytes), beside the new one's.
        var corrected = try String(contentsOf: file, encoding: .utf8)
        corrected += corrected.hasSuffix("\n") ? "" : "\n"
        corrected += String(try #require(corrected.split(separator: "\n").last { $0.contains(order) })) + "\n"
        try corrected.write(to: file, atomically: true, encoding: .utf8)
        #expect(try harness.run().0 == .succeeded)
        let (again, againLines) = harness.showOrder(order)
        #expect(again == .succeeded && againLines.count == 1 + 2 * expected.count + 1, "\(againLines)")
    }

    /// Migration 0033's per-file checks (0029's, on the facts): a Google earnings file whose facts do not fold exactly
    /// its `row_count` rows (facts under another id, or none), or that names kept bytes it does not have, cannot
    /// commit; deleting a file deletes its facts, and its kept bytes once no file names them.
    @Test func aFileMustHoldExactlyItsRowsAndTakesThemAlongWhenDeleted() throws {
        let harness = try Self.stagedFixture("earnings_rows_per_file")
        let db = harness.database
        let staged = try harness.scalar("SELECT sum(row_count)::int8 AS n FROM google_earnings_fact")
        let facts = try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact")
        #expect(staged > facts && facts > 0)
        let chunks = try harness.scalar("SELECT count(*) AS n FROM report_file_content")
        #expect(chunks == 1)
        func addFile(rows: Int, copyFactsFrom source: Int64?, keptSize: Int64? = nil) throws {
            try Self.addFile(harness, rows: rows, copyFactsFrom: source, keptSize: keptSize)
        }
        let file = try harness.scalar("SELECT id AS n FROM report_file WHERE kind = 'googleEarnings'")
        let size = try harness.scalar("SELECT kept_size AS n FROM report_file WHERE kind = 'googleEarnings'")
        #expect(throws: (any Error).self) { try addFile(rows: Int(staged), copyFactsFrom: nil) }
        #expect(throws: (any Error).self) { try addFile(rows: Int(staged) + 1, copyFactsFrom: file) }
        #expect(throws: (any Error).self) { try addFile(rows: Int(staged), copyFactsFrom: file, keptSize: size + 1) }
        try addFile(rows: Int(staged), copyFactsFrom: file, keptSize: size)
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact") == 2 * facts)
        _ = try db.execute("DELETE FROM report_file WHERE report_key = 'google:earnings:test'")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact") == facts)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file_content") == chunks, "still named by the first file")
        _ = try db.execute("DELETE FROM report_file")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact") == 0)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file_content") == 0)
    }

    /// After staging a Google earnings file the import brings the facts' planner statistics up to date (migration
    /// 0045), so the reconcile that follows plans the new file's facts by their count; a rerun that stages nothing
    /// analyses nothing.
    @Test func theImportLeavesTheFactsAnalysed() throws {
        let harness = try ImportHarness("earnings_facts_statistics")
        let name = "earnings_201911_1234567890123-0.csv"
        try FileManager.default.copyItem(at: Self.earningsFixture(name), to: harness.folder.appendingPathComponent(name))
        let analysed = "SELECT coalesce(analyze_count, 0) AS n FROM pg_stat_user_tables WHERE relname = 'google_earnings_fact'"
        #expect(try harness.scalar(analysed) == 0)
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["facts_statistics_failed"] == nil, "\(line)")
        #expect(try harness.scalar(analysed) == 1)
        let (again, againCounts, againLine) = try harness.run()
        #expect(again == .succeeded && againCounts["files_unchanged"] == 1, "\(againLine)")
        #expect(try harness.scalar(analysed) == 1, "an unchanged file is not staged again, nor the table analysed")
    }

    /// Migration 0044's part of the check (the facts have no unique key since): a file's facts are numbered 0 … n − 1,
    /// so a fact written twice in place of another (the rows still adding up), or numbered past the end, cannot commit.
    @Test func aFileWhoseFactsAreNotNumberedFromZeroOnCannotCommit() throws {
        let harness = try Self.stagedFixture("earnings_fact_numbers")
        let file = try harness.scalar("SELECT id AS n FROM report_file WHERE kind = 'googleEarnings'")
        let facts = try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact")
        let rows = Int(try harness.scalar("SELECT sum(row_count)::int8 AS n FROM google_earnings_fact"))
        #expect(facts >= 3)
        /// Stages a copy of the file's facts, renumbered by `seq` (an SQL expression of `seq`), under a new file.
        func addFile(renumbered seq: String) throws {
            try Self.addFile(harness, rows: rows, copyFactsFrom: file, seq: seq)
        }
        for wrong in ["CASE WHEN seq = 1 THEN 0 ELSE seq END", "CASE WHEN seq = 1 THEN 2 WHEN seq = 2 THEN 1 ELSE seq END + 1",
                      "seq + 1", "CASE WHEN seq = \(facts - 1) THEN \(facts) ELSE seq END"] {
            #expect(throws: (any Error).self, "\(wrong)") { try addFile(renumbered: wrong) }
        }
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact") == facts, "nothing of the refused files stays")
        try addFile(renumbered: "CASE WHEN seq = 1 THEN 2 WHEN seq = 2 THEN 1 ELSE seq END")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact") == 2 * facts)
    }

    @Test(arguments: [3, 7, 11] as [UInt64]) func aWorldsEarningsStageAsThePerRowStagingStagedThem(_ seed: UInt64) throws {
        let harness = try ImportHarness("earnings_staged_world_\(seed)")
        let world = try World.generate(WorldOptions(seed: seed, subscriptions: 600, months: 3))
        _ = try StoreReports.write(world, to: harness.folder)
        let (code, counts, line) = try harness.run(["--reports-dir", harness.folder.appendingPathComponent("reports/google").path],
                                                   folder: false)
        #expect(code == .succeeded && (counts["google_earnings_imported"] ?? 0) > 0, "\(line)")
        let digest = try Self.stagedDigest(harness)
        #expect(digest == Self.worldDigests[seed], "seed \(seed): \(digest)")
        let zips = try FileManager.default.contentsOfDirectory(at: harness.folder.appendingPathComponent("reports/google/earnings"),
                                                               includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("earnings_") }
        #expect(!zips.isEmpty)
        try Self.expectKeptBytes(harness, files: zips)
    }
}

/// The streaming import refuses what the whole-file reading refused, for the same reason, and spares an unchanged
/// file the staging.
@Suite(.serialized) struct GoogleEarningsStreamingTests {
    /// Every malformed earnings file and zip of both corpora: the streamed read's rejection is the whole-file
    /// reading's (`ReportArchive.singleCSV`, then `GoogleEarningsParser.parse`), file, line, column and reason.
    @Test func aStreamedFileIsRefusedAsTheWholeFileReadingRefusesIt() throws {
        let corpus = try MalformedImportTests.corpus().filter { StoreReportKind(fileName: $0.importedAs) == .googleEarnings }
        #expect(corpus.count >= 17, "\(corpus.count) files")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earnings-streamed-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for bad in corpus {
            let bytes = [UInt8](try Data(contentsOf: bad.source))
            let target = folder.appendingPathComponent(bad.importedAs)
            try? FileManager.default.removeItem(at: target)
            try Data(bytes).write(to: target)
            let whole = rejection {
                if bad.importedAs.hasSuffix(".zip") {
                    let member = try ReportArchive.singleCSV(bytes, file: bad.importedAs)
                    return try GoogleEarningsParser.parse(member.bytes, file: bad.importedAs + "/" + member.name)
                }
                return try GoogleEarningsParser.parse(bytes, file: bad.importedAs)
            }
            let streamed = rejection { try ReportReader.read(FoundReportFile(path: target.path, kind: .googleEarnings)) }
            #expect(whole != nil && streamed == whole, "\(bad): \(String(describing: streamed)) vs \(String(describing: whole))")
        }
    }

    /// A nightly rerun over an imported file stages nothing (its hash is read first: no file id is even drawn), and a
    /// file read without that first look is staged, found held, and rolled back.
    @Test func anUnchangedFileIsNotStagedAgain() throws {
        let harness = try ImportHarness("earnings_unchanged")
        let name = "earnings_201911_1234567890123-0.csv"
        try FileManager.default.copyItem(at: GoogleEarningsStagingTests.earningsFixture(name), to: harness.folder.appendingPathComponent(name))
        #expect(try harness.run().0 == .succeeded)
        let digest = try harness.digest()
        let sequence = "SELECT last_value AS n FROM report_file_id_seq"
        let drawn = try harness.scalar(sequence)
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["google_earnings_unchanged"] == 1, "\(line)")
        #expect(try harness.scalar(sequence) == drawn, "the rerun staged the file again")
        let loader = ReportLoader(database: harness.database, actor: "test")
        let path = harness.folder.appendingPathComponent(name).path
        #expect(try loader.loadGoogleEarnings(path).outcome == .unchanged)
        #expect(try harness.digest() == digest)
    }
}

extension GoogleEarningsStreamingTests {
    /// A bomb hidden in a large archive: 64 MiB of zeros (64 KiB compressed) before 16 MiB that do not compress.
    /// Over the whole archive's size the ratio is 5, under any limit; over the bytes read so far it passes 200 at the
    /// bomb's first 16 MiB, and the read stops there.
    @Test func aBombIsStoppedByTheRatioOfWhatWasReadSoFar() throws {
        var noise = [UInt8](repeating: 0, count: 16 << 20)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in noise.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            noise[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        let zip = try ZipArchive.make([("a.csv", [UInt8](repeating: 0x30, count: 64 << 20)), ("b.bin", noise)], mtime: 0)
        #expect(zip.count > 16 << 20)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earnings-bomb-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("earnings_202607_1234567890123-0.zip")
        try Data(zip).write(to: path)
        let error = try #require(rejection { try ReportReader.read(FoundReportFile(path: path.path, kind: .googleEarnings)) })
        #expect(error.reason.contains("expands more than 200× its compressed size"), "\(error)")
        #expect(error.file.hasSuffix("/a.csv") && error.column <= (17 << 20), "\(error)")
    }
}

/// Lines a job printed.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
}

private func rejection(_ body: () throws -> Any) -> StoreReportError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? StoreReportError
    }
}

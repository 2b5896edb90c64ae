import Archive
import Foundation
import JobKit
@testable import ReportImport
import StoreExports
import TestSupport
import Testing
import WorldGen

/// What `import-exports` stages from Google earnings files — every column of every row, the `report_file` rows and
/// the exchange rates taken from them — is pinned by digests computed with the whole-file import (before the
/// streaming import replaced it): the earnings fixtures (a quoted multi-line title, every transaction type, the
/// column variants of 2016, 2019 and 2025) and a generated world's earnings zips.
@Suite(.serialized) struct GoogleEarningsStagingTests {
    /// Every staged value of the Google earnings import, as one MD5 (the file id left out: it is a sequence number).
    static func stagedDigest(_ harness: ImportHarness) throws -> String {
        let sql = """
            SELECT md5(
                (SELECT coalesce(string_agg(concat_ws('|', f.report_key, r.line, r.order_id, r.transaction_date, r.transaction_at,
                        r.transaction_zone, r.tax_type, r.transaction_type, coalesce(r.refund_type, '∅'), r.product_title, r.product_id,
                        r.product_type, r.sku_id, r.hardware, r.buyer_country, r.buyer_state, r.buyer_postal_code, r.buyer_currency,
                        r.amount_buyer_micros, r.currency_conversion_rate, r.merchant_currency, r.amount_merchant_micros,
                        r.base_plan_id, r.offer_id, r.group_id, r.first_usd_1m_eligible, r.service_fee_percent,
                        r.fee_description, r.promotion_id, r.sales_channel), E'\\n' ORDER BY f.report_key, r.line), '')
                 FROM google_earnings_row r JOIN report_file f ON f.id = r.report_file_id)
                || (SELECT coalesce(string_agg(concat_ws('|', kind, provider, file_name, report_key, content_sha256, period, region,
                        vendor, row_count, replaced_by IS NULL), E'\\n' ORDER BY report_key), '')
                    FROM report_file WHERE kind = 'google_earnings')
                || (SELECT coalesce(string_agg(concat_ws('|', month, from_currency, to_currency, rate, source), E'\\n'
                        ORDER BY month, from_currency, to_currency), '') FROM fx_rate)) AS d
            """
        return try #require(try harness.database.query(sql).first).decode(String.self, "d")
    }

    /// The whole-file import's digests of the worlds at seeds 3, 7 and 11.
    static let worldDigests: [UInt64: String] = [3: "50a4b4da4c3af050903c301a0f82b22e", 7: "1d57b9d9fd9fbdd04f39b1204b25d8ca",
                                                         11: "0100bea65613de79ee0912b7fd8756b8"]

    static func earningsFixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StoreExportsTests/Fixtures/google/" + name)
    }

    @Test func theFixturesStageAsTheWholeFileImportStagedThem() throws {
        let harness = try ImportHarness("earnings_staged_fixtures")
        for name in ["earnings_201604_1234567890123-0.csv", "earnings_201911_1234567890123-0.csv",
                     "earnings_202501_1234567890123-1.csv"] {
            try FileManager.default.copyItem(at: Self.earningsFixture(name), to: harness.folder.appendingPathComponent(name))
        }
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["google_earnings_imported"] == 3, "\(line)")
        let digest = try Self.stagedDigest(harness)
        #expect(digest == "df4b61baaa01d9ddc95f0b476d214237", "\(digest)")
    }

    /// Migration 0029's per-file checks, which replace the per-row foreign key: a Google earnings file whose staged rows
    /// are not exactly its `row_count` (rows under another id, or none) cannot commit, and deleting a file deletes its rows.
    @Test func aFileMustHoldExactlyItsRowsAndTakesThemAlongWhenDeleted() throws {
        let harness = try ImportHarness("earnings_rows_per_file")
        let name = "earnings_201911_1234567890123-0.csv"
        try FileManager.default.copyItem(at: Self.earningsFixture(name), to: harness.folder.appendingPathComponent(name))
        let (code, _, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        let db = harness.database
        let staged = try harness.scalar("SELECT count(*) AS n FROM google_earnings_row")
        #expect(staged > 0)
        func addFile(rows: Int, copyRowsFrom source: Int64?) throws {
            try db.transaction { db in
                let id = try #require(try db.query("SELECT nextval(pg_get_serial_sequence('report_file', 'id')) AS id").first)
                    .decode(Int64.self, "id")
                if let source {
                    _ = try db.execute("""
                        INSERT INTO google_earnings_row SELECT $1, line, order_id, transaction_date, transaction_at, transaction_zone,
                            tax_type, transaction_type, refund_type, product_title, product_id, product_type, sku_id, hardware,
                            buyer_country, buyer_state, buyer_postal_code, buyer_currency, amount_buyer_micros,
                            currency_conversion_rate, merchant_currency, amount_merchant_micros, base_plan_id, offer_id, group_id,
                            first_usd_1m_eligible, service_fee_percent, fee_description, promotion_id, sales_channel
                        FROM google_earnings_row WHERE report_file_id = $2
                        """, [id, source])
                }
                _ = try db.execute("""
                    INSERT INTO report_file (id, kind, provider, file_name, report_key, content_sha256, period, row_count)
                    VALUES ($1, 'googleEarnings', 'google', 'x.csv', 'google:earnings:test', repeat('0', 64), '2019-11', $2)
                    """, [id, rows])
            }
        }
        let file = try harness.scalar("SELECT id AS n FROM report_file WHERE kind = 'googleEarnings'")
        #expect(throws: (any Error).self) { try addFile(rows: Int(staged), copyRowsFrom: nil) }
        #expect(throws: (any Error).self) { try addFile(rows: Int(staged) + 1, copyRowsFrom: file) }
        try addFile(rows: Int(staged), copyRowsFrom: file)
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_row") == 2 * staged)
        _ = try db.execute("DELETE FROM report_file WHERE report_key = 'google:earnings:test'")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_row") == staged)
    }

    @Test(arguments: [3, 7, 11] as [UInt64]) func aWorldsEarningsStageAsTheWholeFileImportStagedThem(_ seed: UInt64) throws {
        let harness = try ImportHarness("earnings_staged_world_\(seed)")
        let world = try World.generate(WorldOptions(seed: seed, subscriptions: 600, months: 3))
        _ = try StoreReports.write(world, to: harness.folder)
        let (code, counts, line) = try harness.run(["--reports-dir", harness.folder.appendingPathComponent("reports/google").path],
                                                   folder: false)
        #expect(code == .succeeded && (counts["google_earnings_imported"] ?? 0) > 0, "\(line)")
        let digest = try Self.stagedDigest(harness)
        #expect(digest == Self.worldDigests[seed], "seed \(seed): \(digest)")
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

private func rejection(_ body: () throws -> Any) -> StoreReportError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? StoreReportError
    }
}

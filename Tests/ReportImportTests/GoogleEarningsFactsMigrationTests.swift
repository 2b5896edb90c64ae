import Foundation
import JobKit
import Postgres
@testable import ReportImport
import StoreExports
import TestSupport
import Testing
import WorldGen

/// Migration 0033 on a database staged row by row: the facts it computes from the staged rows with SQL are the facts
/// the importer folds from the same files, so a month staged before the migration reconciles as it did.
@Suite(.serialized) struct GoogleEarningsFactsMigrationTests {
    /// Each fact of the staged earnings, by file name and seq, as text.
    static func facts(_ db: PostgresConnection) throws -> [String] {
        try db.query("""
            SELECT concat_ws('|', f.file_name, g.seq, g.order_id, g.side, g.gross_micros, g.fee_micros, g.tax_micros,
                             g.charge_count, g.row_count, g.currency, g.country, g.product_id, coalesce(g.refund_type, '∅'),
                             g.first_at) AS fact
            FROM google_earnings_fact g JOIN report_file f ON f.id = g.report_file_id ORDER BY f.file_name, g.seq
            """).rows.map { try $0.decode(String.self, "fact") }
    }

    /// Stages `rows` of the file `name` as the per-row staging did (migration 0029's schema): every column of every
    /// row, then the file's `report_file` row, in one transaction.
    static func stageRows(_ rows: [GoogleEarningsRow], file name: String, into db: PostgresConnection) throws {
        try db.transaction { db in
            let id = try #require(try db.query("SELECT nextval(pg_get_serial_sequence('report_file', 'id')) AS id").first)
                .decode(Int64.self, "id")
            _ = try db.copyIn("""
                COPY google_earnings_row (report_file_id, line, order_id, transaction_date, transaction_at, transaction_zone,
                tax_type, transaction_type, refund_type, product_title, product_id, product_type, sku_id, hardware, buyer_country,
                buyer_state, buyer_postal_code, buyer_currency, amount_buyer_micros, currency_conversion_rate, merchant_currency,
                amount_merchant_micros, base_plan_id, offer_id, group_id, first_usd_1m_eligible, service_fee_percent,
                fee_description, promotion_id, sales_channel) FROM STDIN
                """) { copy in
                for r in rows {
                    try copy.writeRow([String(id), String(r.line), r.orderID, r.transactionDate.description,
                                       StagingCopy.epochText(r.transactionEpochSeconds), r.transactionZone, r.taxType,
                                       r.transactionType.raw, r.refundType?.rawValue, r.productTitle, r.productID,
                                       String(r.productType), r.skuID, r.hardware, r.buyerCountry, r.buyerState, r.buyerPostalCode,
                                       r.buyerCurrency, String(r.amountBuyerMicros), r.currencyConversionRate.description,
                                       r.merchantCurrency, String(r.amountMerchantMicros), r.basePlanID, r.offerID, r.groupID,
                                       r.firstUSD1MEligible, r.serviceFeePercent, r.feeDescription, r.promotionID, r.salesChannel])
                }
            }
            let identity = ReportIdentity.of(name, kind: .googleEarnings)
            _ = try db.execute("""
                INSERT INTO report_file (id, kind, provider, file_name, report_key, content_sha256, period, row_count)
                VALUES ($1, 'googleEarnings', 'google', $2, $3, md5($2) || md5($3), $4, $5)
                """, [id, name, identity.key, identity.period, rows.count])
        }
    }

    @Test func theMigrationFoldsTheStagedRowsAsTheImporterFoldsTheFiles() throws {
        // The files: the earnings fixtures and a generated world's earnings zips.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earnings-facts-migration-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in GoogleEarningsStagingTests.fixtureNames {
            try FileManager.default.copyItem(at: GoogleEarningsStagingTests.earningsFixture(name), to: folder.appendingPathComponent(name))
        }
        let world = try World.generate(WorldOptions(seed: 3, subscriptions: 300, months: 3))
        let written = folder.appendingPathComponent("world")
        _ = try StoreReports.write(world, to: written)
        for zip in try FileManager.default.contentsOfDirectory(at: written.appendingPathComponent("reports/google/earnings"),
                                                               includingPropertiesForKeys: nil) {
            try FileManager.default.moveItem(at: zip, to: folder.appendingPathComponent(zip.lastPathComponent))
        }
        try FileManager.default.removeItem(at: written)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(files.count >= 6)

        // Staged row by row on the schema before 0033, then migrated.
        let before = try PostgresConnection(configuration: try TestDatabase.fresh("report_import_facts_migration"))
        defer { before.close() }
        _ = try Migrator(database: before, files: try Migrator.shippedFiles().filter { $0.version < 33 }).migrate()
        var staged: [(name: String, rows: [GoogleEarningsRow])] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let name = file.lastPathComponent
            let rows = name.hasSuffix(".zip")
                ? try GoogleEarningsParser.parse(try ReportArchive.singleCSV(bytes, file: name).bytes, file: name)
                : try GoogleEarningsParser.parse(bytes, file: name)
            try Self.stageRows(rows, file: name, into: before)
            staged.append((name, rows))
        }
        let applied = try Migrator(database: before).migrate()
        #expect(applied.contains { $0.hasPrefix("0033_") }, "\(applied)")
        #expect(try before.query("SELECT to_regclass('google_earnings_row') IS NULL AS gone").first?.decode(Bool.self, "gone") == true)

        // The rows staged before 0033 stay, read-only, as those files' audit trail: show-order reads an order's rows
        // back from them (the files have no kept bytes), every column as the parser read it.
        let kept = try #require(try before.query("SELECT count(*) AS n FROM google_earnings_row_before_0033").first)
        #expect(try kept.decode(Int64.self, "n") == Int64(staged.map(\.rows.count).reduce(0, +)))
        let first = try #require(staged.first { !$0.rows.isEmpty })
        let order = try #require(first.rows.last?.orderID)
        let found = try StagedOrderRows.find(order, in: before)
        let expected = staged.compactMap { file -> (String, [[String]])? in
            let rows = file.rows.filter { $0.orderID == order }.map(ShowOrder.columns)
            return rows.isEmpty ? nil : (file.name, rows)
        }
        #expect(found.map(\.fileName) == expected.map(\.0))
        #expect(found.map(\.rows) == expected.map(\.1))

        // Imported by import-exports.
        let harness = try ImportHarness("facts_migration_imported")
        for file in files { try FileManager.default.copyItem(at: file, to: harness.folder.appendingPathComponent(file.lastPathComponent)) }
        let (code, _, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")

        let migrated = try Self.facts(before), imported = try Self.facts(harness.database)
        #expect(migrated.count > 200)
        #expect(migrated == imported)
    }
}

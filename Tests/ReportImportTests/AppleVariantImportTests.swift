import Foundation
import JobKit
import Testing

/// Every Apple report variant the store-exports fixtures hold (Tests/StoreExportsTests/Fixtures/README.md says what
/// each is shaped after), imported by `import-exports` on its own: the run succeeds, one file is imported, and the
/// staged rows' count and sums equal the fixture's. The expected figures were read off the fixture files by hand
/// (rows, and the amount and unit columns summed as written), not computed by our parsers: the 1_3 Subscriber layout
/// with both offer columns, the older one, decimals without a leading zero, decimal `Units`, a Summary Sales free row
/// with an empty proceeds currency, financial reports with a return row, integer JPY amounts and the consolidated
/// layout with its per-country table, gzip delivery, and the four payments-summary layouts.
@Suite struct AppleVariantImportTests {
    /// One fixture and what its import must stage.
    struct Variant: Sendable, CustomTestStringConvertible {
        /// The fixture's name under StoreExportsTests/Fixtures/apple.
        let file: String
        /// The staging table its rows go to.
        let table: String
        /// Rows in the fixture (footers, blank lines and summary tables excluded).
        let rows: Int64
        /// An amount column of `table` and the fixture's sum of it, in micros.
        let amountColumn: String, amountMicros: Int64
        /// A unit column of `table` and the fixture's sum of it.
        let unitColumn: String, units: Int64

        var testDescription: String { file }
    }

    static let variants: [Variant] = [
        Variant(file: "Subscriber_85000000_20251103.txt", table: "apple_subscriber_row", rows: 4,
                amountColumn: "developer_proceeds_micros", amountMicros: 7_560_000, unitColumn: "units", units: 4),
        Variant(file: "Subscriber_85000000_20190405.txt", table: "apple_subscriber_row", rows: 1,
                amountColumn: "developer_proceeds_micros", amountMicros: 3_490_000, unitColumn: "units", units: 1),
        Variant(file: "Subscriber_85000000_20200612.txt", table: "apple_subscriber_row", rows: 2,
                amountColumn: "customer_price_micros", amountMicros: 5_980_000, unitColumn: "units", units: 2),
        Variant(file: "S_D_85000000_20201005.txt", table: "apple_sales_summary_row", rows: 2,
                amountColumn: "developer_proceeds_micros", amountMicros: 700_000, unitColumn: "units", units: 52),
        Variant(file: "S_D_85000000_20251103.txt", table: "apple_sales_summary_row", rows: 4,
                amountColumn: "customer_price_micros", amountMicros: 20_980_000, unitColumn: "units", units: 5),
        Variant(file: "45545510_0914_CH.txt", table: "apple_financial_row", rows: 6,
                amountColumn: "extended_partner_share_micros", amountMicros: 6_300_000, unitColumn: "quantity", units: 19),
        Variant(file: "45545510_0914_CH.txt.gz", table: "apple_financial_row", rows: 6,
                amountColumn: "extended_partner_share_micros", amountMicros: 6_300_000, unitColumn: "quantity", units: 19),
        Variant(file: "85000000_0125_JP.txt", table: "apple_financial_row", rows: 2,
                amountColumn: "extended_partner_share_micros", amountMicros: 179_000_000, unitColumn: "quantity", units: 2),
        Variant(file: "85000000_1125_ZZ.txt", table: "apple_financial_row", rows: 5,
                amountColumn: "extended_partner_share_micros", amountMicros: 34_700_000, unitColumn: "quantity", units: 6),
        Variant(file: "financial_report.csv", table: "apple_payments_row", rows: 3,
                amountColumn: "earned_micros", amountMicros: 421_160_000, unitColumn: "units_sold", units: 1_225),
        Variant(file: "financial_report_balance.csv", table: "apple_payments_row", rows: 2,
                amountColumn: "earned_micros", amountMicros: 27_690_000, unitColumn: "units_sold", units: 4),
        Variant(file: "financial_report_country_or_region.csv", table: "apple_payments_row", rows: 1,
                amountColumn: "earned_micros", amountMicros: 2_999_720_000, unitColumn: "units_sold", units: 19),
        Variant(file: "financial_report_unpaid_fr.csv", table: "apple_payments_row", rows: 2,
                amountColumn: "earned_micros", amountMicros: 12_495_670_000, unitColumn: "units_sold", units: 2_329),
    ]

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StoreExportsTests/Fixtures/apple")

    @Test(arguments: variants)
    func eachVariantImportsWithTheFixturesRowsAndSums(_ variant: Variant) throws {
        let name = variant.file.replacingOccurrences(of: ".", with: "_").lowercased()
        let harness = try ImportHarness("variant_" + name)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(variant.file),
                                         to: harness.folder.appendingPathComponent(variant.file))
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 1 && counts["files_rejected"] == nil, "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM \(variant.table)") == variant.rows)
        #expect(try harness.scalar("SELECT sum(\(variant.amountColumn))::bigint AS n FROM \(variant.table)") == variant.amountMicros)
        #expect(try harness.scalar("SELECT sum(\(variant.unitColumn))::bigint AS n FROM \(variant.table)") == variant.units)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 1)
    }
}

import Foundation
import JobKit
import Postgres
import ReportImport
import TestSupport
import Testing

/// SQL-injection and control-character strings inside report cells (a CSV cell quoted around quotes, a tab and a
/// newline; a TSV cell with quotes, backslashes and escape sequences) are staged byte for byte as data.
@Suite(.serialized) struct HostileReportContentTests {
    /// The hostile text without tab and newline (a TSV cell cannot hold them).
    static let tsvSafe = "x'); DROP TABLE report_file; -- \"q\" \\N \\\\ $1 %s %n \u{1B}[31mred\u{1B}[0m \u{7F} \u{2028} \u{202E}gnp.exe ;"
    /// The hostile text with a tab, CR/LF and a lone LF as well.
    static let csvCell = tsvSafe + "\ttab\r\ncrlf\nlf"

    static func storeFixture(_ path: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StoreExportsTests/Fixtures/" + path)
        return [UInt8](try Data(contentsOf: url))
    }

    @Test func aQuotedCSVCellWithQuotesTabsAndNewlinesIsStagedAsWritten() throws {
        let harness = try ImportHarness("hostile_csv")
        // The real-shaped earnings fixture (provenance: StoreExportsTests/Fixtures/README.md), its second line's
        // Product Title and Product id replaced by the hostile text, quoted as RFC 4180 asks (quotes doubled).
        var lines = String(decoding: try Self.storeFixture("google/earnings_201911_1234567890123-0.csv"), as: UTF8.self)
            .components(separatedBy: "\n")
        let orderId = try #require(lines[1].split(separator: ",").first.map(String.init))
        let quoted = "\"" + Self.csvCell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        lines[1] = lines[1].replacingOccurrences(of: "Premium 12 meses (CantoApp),member.android.cableshop",
                                                 with: quoted + "," + quoted)
        #expect(lines[1].contains(quoted))
        try lines.joined(separator: "\n").write(to: harness.folder.appendingPathComponent("earnings_201911_1234567890123-0.csv"),
                                                atomically: true, encoding: .utf8)
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 1)
        // The order's fact carries the product as written; the row itself, read back from the kept file, both cells.
        let fact = try #require(try harness.database.query("SELECT product_id FROM google_earnings_fact WHERE order_id = $1 ORDER BY seq",
                                                           [orderId]).first)
        #expect(try fact.decode(String.self, "product_id") == Self.csvCell)
        let found = try StagedOrderRows.find(orderId, in: harness.database)
        // Columns as `ShowOrder.header` names them: 5 product_title, 6 product_id.
        let row = try #require(found.first?.rows.first { $0[6] != "member.android.cableshop" })
        #expect(row[6] == Self.csvCell)
        #expect(row[5] == Self.csvCell)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 1, "no statement but the import ran")
    }

    @Test func aTSVCellWithQuotesBackslashesAndEscapesIsStagedAsWritten() throws {
        let harness = try ImportHarness("hostile_tsv")
        // The Subscriber report fixture, its first row's Subscription Name replaced by the hostile text.
        var lines = String(decoding: try Self.storeFixture("apple/Subscriber_85000000_20251103.txt"), as: UTF8.self)
            .components(separatedBy: "\n")
        var cells = lines[1].components(separatedBy: "\t")
        cells[3] = Self.tsvSafe
        lines[1] = cells.joined(separator: "\t")
        try lines.joined(separator: "\n").write(to: harness.folder.appendingPathComponent("Subscriber_85000000_20251103.txt"),
                                                atomically: true, encoding: .utf8)
        let (code, _, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        let names = try harness.database.query("SELECT subscription_name FROM apple_subscriber_row WHERE line = 2")
            .rows.map { try $0.decode(String.self, "subscription_name") }
        #expect(names == [Self.tsvSafe])
    }
}

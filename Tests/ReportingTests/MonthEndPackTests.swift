import Foundation
import Reporting
import Testing

/// The month-end pack as finance reads it: on the workbook's cover and at the top of `report.html`, the last complete
/// month against the month before, each figure the `kpis.csv` cell of the `ALL` providers row (MRR, ARR, the bridge,
/// rates), the change their difference, trial conversion from `trial_conversion.csv`, a reconciliation line per store.
@Suite(.serialized) struct MonthEndPackTests {
    @Test func theCoverAndThePageCarryThePackEqualToTheCSVs() throws {
        let harness = try ReportingHarness("pack", subscriptions: 200, months: 5)
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", try harness.sqlFolder("sql").path, "--out", out.path])
        #expect(code == .succeeded, "\(summary)")
        let files = try ReportingHarness.files(out)
        let book = try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path)
        let html = String(decoding: try #require(files["report.html"]), as: UTF8.self)

        // The world's as-of is mid-month, so the pack is about the month before it.
        let asOfMonth = String(harness.asOf.prefix(7))
        let kpis = CSVReadBack.records(try #require(files["kpis.csv"]))
        let header = try #require(kpis.first)
        func at(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "kpis.csv has \(name)") }
        let monthAt = try at("month"), providerAt = try at("provider")
        let months = Set(kpis.dropFirst().compactMap { $0[monthAt] }).sorted()
        let month = try #require(months.last { $0 < asOfMonth }), previous = try #require(months.last { $0 < month })
        func all(_ m: String) throws -> [String?] { try #require(kpis.dropFirst().first { $0[monthAt] == m && $0[providerAt] == "ALL" }) }
        let now = try all(month), before = try all(previous)

        // The cover: label in A, the month before in B, the month in C, the change in D.
        let cover = book.cells(sheet: 1)
        let headingRow = try #require(cover.first { if case .text(let t)? = $0.value[0] { return t.hasPrefix("Month-end pack") } else { return false } }?.key)
        let heading = try #require(cover[headingRow])
        // The pack's lines: the rows under its heading down to the blank row that ends it.
        var byLabel: [String: [Int: XLSXReadBack.Value]] = [:]
        var row = headingRow + 1
        while let cells = cover[row], case .text(let label)? = cells[0] { byLabel[label] = cells; row += 1 }
        #expect(heading[1] == .text(previous) && heading[2] == .text(month) && heading[3] == .text("change"), "\(heading)")
        for (label, column) in [("MRR", "mrr"), ("ARR", "arr"), ("Net new MRR", "net_new_mrr")] {
            let cells = try #require(byLabel[label], "cover line \(label)")
            let a = try cents(before[try at(column)]), b = try cents(now[try at(column)])
            #expect(number(cells[1]).map { Int64(($0 * 100).rounded()) } == a, "\(label) \(previous)")
            #expect(number(cells[2]).map { Int64(($0 * 100).rounded()) } == b, "\(label) \(month)")
            #expect(number(cells[3]).map { Int64(($0 * 100).rounded()) } == b - a, "\(label) change")
            // The page shows the same figures in its pack table.
            #expect(try packCell(label, month: month, in: html).map { try cents($0) } == b, "page \(label) \(month)")
        }
        for (label, column) in [("Logo churn rate", "logo_churn_rate"), ("Refund rate", "refund_rate")] {
            let cells = try #require(byLabel[label], "cover line \(label)")
            let csv = now[try at(column)].flatMap(Double.init)
            #expect(abs((number(cells[2]) ?? .nan) - (csv ?? .nan)) < 1e-12, "\(label) \(month): cover \(String(describing: cells[2])), CSV \(String(describing: csv))")
        }
        #expect(byLabel.keys.contains { $0.hasPrefix("Trial conversion") })
        #expect(byLabel.keys.contains { $0.hasPrefix("Reconciliation") } || !files.keys.contains("reconciliation.csv"))
        #expect(html.contains("id=\"pack-table\""))
    }

    /// The page's pack cell of `label` for `month`, as shown.
    func packCell(_ label: String, month: String, in html: String) -> String? {
        guard let start = html.range(of: "data-pack=\"\(label)\" data-month=\"\(month)\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let open = rest.firstIndex(of: ">") else { return nil }
        return String(rest[rest.index(after: open)...].prefix { $0 != "<" })
    }

    /// A two-place decimal (`-12.34`) in cents; nil field is 0.
    func cents(_ text: String?) throws -> Int64 {
        let text = text ?? "0"
        let negative = text.hasPrefix("-")
        let parts = (negative ? String(text.dropFirst()) : text).split(separator: ".", omittingEmptySubsequences: false)
        let whole = try #require(Int64(parts[0]), "amount \(text)")
        let fraction = parts.count > 1 ? (Int64(String(parts[1]).padding(toLength: 2, withPad: "0", startingAt: 0)) ?? 0) : 0
        return (negative ? -1 : 1) * (whole * 100 + fraction)
    }
}

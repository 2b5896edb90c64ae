import Foundation
import Reporting
import Testing

/// The workbook printed the way a person prints it: Debian's LibreOffice (headless) converts it to PDF with the sheets'
/// own print setup, and the pages are counted per sheet from the footer each page carries ("<sheet> … Page x of y").
/// The Charts sheet prints two charts to a page, and the cover, the charts and the summary sheets stay within the 20
/// pages Reports/README.md ("Workbook") promises (Benchmarks/reports/print_pages.sh counts the demo's the same way).
@Suite(.serialized) struct WorkbookPrintTests {
    @Test func theCoverChartsAndSummarySheetsPrintInAtMostTwentyPages() throws {
        let harness = try ReportingHarness("print_pdf")
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", try harness.sqlFolder("sql").path, "--out", out.path, "--format", "xlsx"])
        #expect(code == .succeeded, "\(summary)")
        let office = try #require(["/usr/bin/soffice", "/usr/bin/libreoffice"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "LibreOffice is not installed: `make test-deps` installs libreoffice-calc-nogui")
        let pdfDir = harness.folder("pdf")
        let converted = try HTMLReportTests.run(office, ["--headless", "-env:UserInstallation=file://" + harness.folder("profile").path,
                                                         "--convert-to", "pdf", "--outdir", pdfDir.path,
                                                         out.appendingPathComponent("reports.xlsx").path])
        #expect(converted.status == 0, "soffice: \(converted.error)")
        let text = try HTMLReportTests.run("/usr/bin/pdftotext", ["-layout", pdfDir.appendingPathComponent("reports.pdf").path, "-"])
        #expect(text.status == 0, "pdftotext (poppler-utils): \(text.error)")
        let pages = Self.pagesPerSheet(text.output)

        let charts = ReportCatalogue.standard.flatMap(\.charts).count
        #expect(pages["Charts"] == (charts + 1) / 2, "two charts to a page: \(pages)")
        let summarySheets = ["Cover", "Charts"] + ReportCatalogue.summarySheets.compactMap { name in
            ReportCatalogue.standard.first { $0.name == name }?.sheet
        }
        for sheet in summarySheets { #expect((pages[sheet] ?? 0) >= 1, "\(sheet) prints: \(pages)") }
        #expect(pages["Cover"] == 1, "the cover fits one page")
        let total = summarySheets.reduce(0) { $0 + (pages[$1] ?? 0) }
        #expect(total <= 20, "the cover and the summary sheets print in \(total) pages: \(pages)")
        #expect(pages["(no footer)"] == nil, "every page carries the sheet's footer: \(pages)")
    }

    /// Printed pages per sheet name, read from each page's footer line ("<sheet>   …   Page x of y").
    static func pagesPerSheet(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        let footer = try? NSRegularExpression(pattern: #"^\s*(\S.*?)\s{3,}Page \d+ of \d+\s*$"#, options: [.anchorsMatchLines])
        for page in text.components(separatedBy: "\u{0C}") where !page.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let range = NSRange(page.startIndex..., in: page)
            let name = footer?.matches(in: page, range: range).last.flatMap { Range($0.range(at: 1), in: page) }.map { String(page[$0]) }
            counts[name ?? "(no footer)", default: 0] += 1
        }
        return counts
    }
}

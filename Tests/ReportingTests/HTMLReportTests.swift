import Foundation
import JobKit
import Reporting
import Testing

/// `report.html` as a reader gets it: written beside the CSVs by `build-reports`, self-contained (no script, no
/// external file, a policy that forbids every request), its headline numbers equal to the sums of the CSV cells they
/// name and its figures tables equal to the CSV's rows; and opened by Debian's headless Chromium with networking
/// off, whose DOM holds the same numbers and whose screenshot is a real picture.
@Suite(.serialized) struct HTMLReportTests {
    /// The bridge lines the headline shows, by the CSV column whose cells they add up.
    static let bridgeLines: [(label: String, column: String)] = [
        ("MRR at the start", "start_mrr"), ("+ new", "new"), ("+ expansion", "expansion"), ("+ reactivation", "reactivation"),
        ("− contraction", "contraction"), ("− churn", "churn"), ("+ FX", "fx"), ("MRR at the end", "mrr"),
    ]

    @Test func theReportIsSelfContainedAndItsNumbersAreTheCSVs() throws {
        let harness = try ReportingHarness("html")
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", try harness.sqlFolder("sql").path, "--out", out.path])
        #expect(code == .succeeded, "\(summary)")
        #expect((summary["html"] as? String)?.hasSuffix("/report.html") == true, "the summary says where: \(summary)")
        let files = try ReportingHarness.files(out)
        let html = String(decoding: try #require(files["report.html"]), as: UTF8.self)
        let mode = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("report.html").path)[.posixPermissions] as? Int
        #expect(mode == 0o640)

        // Nothing is loaded from anywhere.
        for forbidden in ["<script", "<link", " src=", "url(", "@import", "<iframe", "<object", "<img"] {
            #expect(!html.lowercased().contains(forbidden), "report.html contains \(forbidden)")
        }
        let addresses = html.components(separatedBy: "://").count - 1
        let namespaces = html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1
        #expect(addresses == namespaces, "the only URL is the SVG namespace, which is no request")
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        #expect(html.components(separatedBy: "<svg").count - 1 == ReportCatalogue.standard.flatMap(\.charts).count, "every chart is drawn")

        try Self.checkHeadline(in: html, csv: CSVReadBack.records(try #require(files["mrr_bridge.csv"])))
        try Self.checkBridgeTable(in: html, csv: CSVReadBack.records(try #require(files["mrr_bridge.csv"])))
    }

    @Test func chromiumOpensItOfflineAndItsDOMHoldsTheHeadline() throws {
        let harness = try ReportingHarness("html_chromium")
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", try harness.sqlFolder("sql").path, "--out", out.path, "--format", "csv,html"])
        #expect(code == .succeeded, "\(summary)")
        let page = out.appendingPathComponent("report.html")
        let browser = try #require(Self.chromium, "chromium is not installed: `make test-deps` installs it")
        let profile = harness.folder("profile").path, screenshot = harness.folder("report.png")
        // A network namespace of its own has no interface but loopback, down: no request can leave.
        let common = ["--map-root-user", "--net", "--", browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                      "--no-first-run", "--user-data-dir=" + profile]
        let dom = try Self.run("/usr/bin/unshare", common + ["--dump-dom", page.absoluteString])
        #expect(dom.status == 0, "chromium --dump-dom: \(dom.error)")
        try Self.checkHeadline(in: dom.output, csv: CSVReadBack.records(try Array(Data(contentsOf: out.appendingPathComponent("mrr_bridge.csv")))))
        let shot = try Self.run("/usr/bin/unshare", common + ["--window-size=1280,2400", "--screenshot=" + screenshot.path, page.absoluteString])
        #expect(shot.status == 0, "chromium --screenshot: \(shot.error)")
        let png = try Array(Data(contentsOf: screenshot))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        #expect(png.count > 20_000, "a picture with content, not a blank page: \(png.count) bytes")
    }

    /// The headline's bridge lines in `html` each equal the sum of the CSV cells of its column over the headline
    /// month's `reporting` rows in USD (the amounts as the CSV shows them).
    static func checkHeadline(in html: String, csv: [[String?]]) throws {
        let header = try #require(csv.first)
        func at(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "mrr_bridge.csv has \(name)") }
        let month = try at("month"), view = try at("view"), currency = try at("currency")
        let rows = csv.dropFirst().filter { $0[view] == "reporting" && $0[currency] == "USD" }
        let last = try #require(rows.compactMap { $0[month] }.max())
        #expect(try #require(headlineValue("Headline month", in: html)).hasPrefix(last))
        for (label, column) in bridgeLines {
            let index = try at(column)
            let expected = try rows.filter { $0[month] == last }.reduce(Int64(0)) { $0 + (try cents($1[index] ?? "0")) }
            let shown = try #require(headlineValue(label, in: html), "headline line \(label)")
            #expect(try cents(shown) == expected, "\(label): page \(shown), CSV cells add up to \(expected) cents")
        }
    }

    /// Every `reporting` row of the bridge CSV is a row of the page's bridge table, cell for cell (the micros columns,
    /// which the page leaves out, apart).
    static func checkBridgeTable(in html: String, csv: [[String?]]) throws {
        let header = try #require(csv.first)
        let view = try #require(header.firstIndex(of: "view"))
        let shown = header.enumerated().filter { !($0.element ?? "").hasSuffix("_micros") }
        let start = try #require(html.range(of: "data-report=\"mrr_bridge\""))
        let end = try #require(html.range(of: "</table>", range: start.upperBound..<html.endIndex))
        let body = html[start.upperBound..<end.lowerBound]
        let pageRows = body.components(separatedBy: "<tr>").dropFirst(2).map { row in
            row.components(separatedBy: "<td").dropFirst().map { cell -> String in
                let text = cell.split(separator: ">", maxSplits: 1).last.map(String.init) ?? ""
                return String(text.prefix { $0 != "<" })
            }
        }
        let csvRows = csv.dropFirst().filter { $0[view] == "reporting" }.map { row in shown.map { row[$0.offset] ?? "" } }
        #expect(pageRows.count == csvRows.count)
        #expect(pageRows == csvRows.map { $0.map(escapeForComparison) })
    }

    /// The value cell of headline line `label` (its `data-headline` attribute), as the page shows it.
    static func headlineValue(_ label: String, in html: String) -> String? {
        guard let start = html.range(of: "data-headline=\"\(label)\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let open = rest.firstIndex(of: ">") else { return nil }
        let value = rest[rest.index(after: open)...].prefix { $0 != "<" }
        return String(value)
    }

    /// A decimal amount with two places (`-12.34`, `5`) in cents.
    static func cents(_ text: String) throws -> Int64 {
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        let whole = try #require(Int64(parts[0]), "amount \(text)")
        let fraction = parts.count > 1 ? try #require(Int64(String(parts[1]).padding(toLength: 2, withPad: "0", startingAt: 0)), "amount \(text)") : 0
        #expect(parts.count == 1 || parts[1].count == 2, "USD shows two places: \(text)")
        return (negative ? -1 : 1) * (whole * 100 + fraction)
    }

    /// `text` as the page escapes it.
    static func escapeForComparison(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Debian's Chromium, if installed.
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` with `arguments`, ended after 120 s: exit status, standard output and standard error (kept in a
    /// file, so a chatty browser never blocks on a full pipe).
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(getpid())-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(120)) { [process] in if process.isRunning { process.terminate() } }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(error.suffix(2000)))
    }
}

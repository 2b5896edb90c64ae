import Foundation
import Reporting
import Testing

/// The workbook as a person prints and reads it: every sheet prints landscape on A4, one page wide, with a footer
/// naming the sheet and the page; a report sheet repeats its header row and prints its own columns and rows only; the
/// cover fits one page; the exact `*_micros` columns are grouped and collapsed, so neither screen nor paper shows them
/// unless expanded; every chart sits on the Charts sheet after the cover, at column A, two to a printed page, none
/// beside the data; the summary sheets come right after it, the detail tables after them; the Cohorts sheet is its CSV
/// pivoted into triangles; the movements chart tells gains from losses and marks the running month; the cover's
/// headline equals the CSVs.
@Suite(.serialized) struct WorkbookLayoutTests {
    /// A run of build-reports on a small world (as-of mid-month): the harness, the files written and the workbook.
    static func written(_ name: String) throws -> (ReportingHarness, [String: [UInt8]], XLSXReadBack) {
        let harness = try ReportingHarness("layout_" + name, subscriptions: 120, months: 4)
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", try harness.sqlFolder("sql").path, "--out", out.path])
        #expect(code == .succeeded, "\(summary)")
        return (harness, try ReportingHarness.files(out), try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path))
    }

    @Test func everySheetPrintsLandscapeOnePageWideWithItsHeaderAndFooter() throws {
        let (_, files, book) = try Self.written("print")
        let workbook = book.parts["xl/workbook.xml"] ?? ""
        /// The `_xlnm.<kind>` defined name of the sheet at 0-based `index`, unescaped.
        func definedName(_ kind: String, sheet index: Int) -> String? {
            book.matches(#"<definedName name="_xlnm\.\#(kind)" localSheetId="\#(index)"[^>]*>(.*?)</definedName>"#, in: workbook)
                .first.map { XLSXReadBack.unescape($0[0]) }
        }
        for (index, name) in book.sheetNames.enumerated() {
            let xml = book.parts["xl/worksheets/sheet\(index + 1).xml"] ?? ""
            let setup = book.matches(#"<pageSetup ([^>]*)/>"#, in: xml).first?[0] ?? "none"
            #expect(setup.contains(#"orientation="landscape""#) && setup.contains(#"paperSize="9""#), "\(name): \(setup)")
            #expect(xml.contains(#"<pageSetUpPr fitToPage="1"/>"#), "\(name): fitted to pages")
            // fitToWidth defaults to 1 (libxlsxwriter leaves it out then); the height is 1 page for the cover, any
            // number for the others.
            #expect(!setup.contains("fitToWidth") || setup.contains(#"fitToWidth="1""#), "\(name): \(setup)")
            #expect(setup.contains(name == "Cover" ? #"fitToHeight="1""# : #"fitToHeight="0""#) || (name == "Cover" && !setup.contains("fitToHeight")),
                    "\(name): \(setup)")
            #expect(xml.contains("<oddFooter>&amp;L&amp;A&amp;RPage &amp;P of &amp;N</oddFooter>"), "\(name): the footer")
            #expect(definedName("Print_Area", sheet: index) != nil, "\(name): a print area")
        }
        // A report sheet repeats its header row and prints exactly its columns and rows (header + data); the Cohorts
        // sheet its triangles' (no micros column there).
        for definition in ReportCatalogue.standard where !definition.detail {
            let index = try #require(book.sheetNames.firstIndex(of: definition.sheet))
            let csv = CSVReadBack.records(try #require(files[definition.name + ".csv"]))
            let triangle = definition.name == "cohorts" ? try Self.triangle(csv) : nil
            let columns = try triangle?.header.count ?? #require(csv.first).count, rows = triangle.map { $0.rows.count + 1 } ?? csv.count
            let sheet = Self.unquoted(definition.sheet)
            #expect(definedName("Print_Titles", sheet: index).map(Self.unquoted) == "\(sheet)!$1:$1", "\(definition.sheet)")
            #expect(definedName("Print_Area", sheet: index).map(Self.unquoted) == "\(sheet)!$A$1:$\(Self.letters(columns))$\(rows)",
                    "\(definition.sheet): \(definedName("Print_Area", sheet: index) ?? "none")")
            // The micros columns are in a collapsed outline group: hidden on screen and paper, the amounts shown.
            let xml = book.parts["xl/worksheets/sheet\(index + 1).xml"] ?? ""
            let hidden = Set(book.matches(#"<col min="(\d+)" max="(\d+)"[^>]*hidden="1"[^>]*outlineLevel="1"[^>]*/>"#, in: xml)
                .flatMap { (Int($0[0]) ?? 0)...(Int($0[1]) ?? 0) })
            let micros: Set<Int> = try triangle != nil ? []
                : Set(#require(csv.first).enumerated().filter { ($0.element ?? "").hasSuffix("_micros") }.map { $0.offset + 1 })
            #expect(hidden == micros, "\(definition.sheet): hidden columns \(hidden.sorted()), micros columns \(micros.sorted())")
        }
        #expect(definedName("Print_Area", sheet: 0) == "Cover!$A$1:$D$\(book.cells(sheet: 1).keys.max() ?? 0)")
    }

    @Test func everyChartIsOnTheChartsSheetAfterTheCoverAtColumnATwoToAPage() throws {
        let (_, _, book) = try Self.written("charts")
        // The summary sheets (Reports/README.md, "Workbook") right after the cover and the charts, then the detail
        // tables in catalogue order, then the charts' data; mrr_movements has no sheet by default.
        #expect(ReportCatalogue.summarySheets == ["kpis", "mrr_bridge", "subscribers", "price_change_churn", "reconciliation"])
        #expect(book.sheetNames == ["Cover", "Charts", "KPIs", "MRR bridge", "Subscribers", "Price-change churn", "Reconciliation",
                                    "MRR", "Refunds", "Grace and hold", "Entitlement leakage", "Trial conversion", "Plan-change mix",
                                    "Cohorts", "Chart data"])
        // Charts: only the Charts sheet has a drawing; every chart of the catalogue is anchored there at column A,
        // one under the other, the summary sheets' first, two to a printed page.
        let printed = ReportCatalogue.printOrder(ReportCatalogue.standard, name: \.name)
        let charts = printed.flatMap(\.charts)
        for (index, name) in book.sheetNames.enumerated() where name != "Charts" {
            #expect(!(book.parts["xl/worksheets/sheet\(index + 1).xml"] ?? "").contains("<drawing "), "\(name) has no chart")
        }
        #expect((book.parts["xl/worksheets/sheet2.xml"] ?? "").contains("<drawing "))
        let drawing = try #require(book.parts.first { $0.key.hasPrefix("xl/drawings/drawing") && $0.key.hasSuffix(".xml") }?.value)
        #expect(book.parts.keys.filter { $0.hasPrefix("xl/drawings/drawing") && $0.hasSuffix(".xml") }.count == 1)
        let anchors = book.matches(#"<xdr:from><xdr:col>([0-9]+)</xdr:col><xdr:colOff>[0-9]+</xdr:colOff><xdr:row>([0-9]+)</xdr:row>"#, in: drawing)
        #expect(anchors.count == charts.count)
        #expect(anchors.allSatisfy { $0[0] == "0" }, "\(anchors)")
        let rows = anchors.compactMap { Int($0[1]) }
        guard rows.count == charts.count else { return }
        #expect(rows == rows.sorted() && Set(rows).count == rows.count, "\(rows)")
        let breaks = book.matches(#"<brk id="([0-9]+)""#, in: book.parts["xl/worksheets/sheet2.xml"] ?? "").compactMap { Int($0[0]) }
        #expect(breaks == rows.enumerated().filter { $0.offset > 0 && $0.offset % 2 == 0 }.map { $0.element - 1 },
                "a page break above the heading of every other chart: \(breaks)")
        // Each chart ends before the next one's heading, and a page (two charts and their headings, the sheet's title
        // row on the first) is at most 31 rows of 20 pixels: 6.46 inches, within A4 landscape's 6.77 between margins.
        let ends = book.matches(#"<xdr:to><xdr:col>[0-9]+</xdr:col><xdr:colOff>[0-9]+</xdr:colOff><xdr:row>([0-9]+)</xdr:row>"#, in: drawing)
            .compactMap { Int($0[0]) }
        #expect(ends.count == rows.count && zip(ends, rows.dropFirst()).allSatisfy { $0 < $1 - 1 }, "ends \(ends), starts \(rows)")
        let pageTops = [0] + breaks, pageEnds = breaks + [(ends.last ?? 0) + 1]
        #expect(zip(pageTops, pageEnds).allSatisfy { $1 - $0 <= 31 }, "pages \(Array(zip(pageTops, pageEnds)))")
        // Each chart has a heading naming its report sheet, right above it.
        let headings = book.cells(sheet: 2)
        for (offset, definition) in printed.filter({ !$0.charts.isEmpty }).flatMap({ d in d.charts.map { (d, $0) } }).enumerated() {
            #expect(headings[rows[offset]]?[0] == .text("Sheet '\(definition.0.sheet)': \(definition.1.title)"))
        }
    }

    @Test func theMovementsChartTellsGainsFromLossesAndMarksThePartialMonthAndPricesAreAmounts() throws {
        let (harness, files, book) = try Self.written("movements")
        // The movements chart: gains in greens, losses in reds, FX grey, month labels below the plot (not across the
        // churn bars), the as-of month labelled partial. The price-change chart's labels show prices as amounts.
        let movementsTitle = ReportCatalogue.standard[1].charts[1].title
        let movements = try #require(book.charts.first { (book.parts[$0] ?? "").contains(XLSXReadBack.escape(movementsTitle)) })
        let chartXML = book.parts[movements] ?? ""
        let fills = book.matches(#"<c:ser>.*?<a:srgbClr val="([0-9A-F]{6})"/>.*?</c:ser>"#, in: chartXML).map { $0[0] }
        // new, expansion, reactivation: greens; contraction, churn: reds; FX: grey.
        #expect(fills == ["1B7837", "5AAE61", "A6DBA0", "F4A582", "B2182B", "999999"], "\(fills)")
        #expect(chartXML.contains(#"<c:tickLblPos val="low"/>"#))
        let data = book.cells(sheet: book.sheetNames.count)
        let labels = data.values.compactMap { cells -> String? in if case .text(let t)? = cells[0] { return t } else { return nil } }
        #expect(labels.contains("\(harness.asOf.prefix(7)) (partial)"), "the as-of month is marked partial in the chart data")
        let cohortLabels = labels.filter { $0.hasPrefix("APPLE ") || $0.hasPrefix("GOOGLE ") }
        #expect(cohortLabels.allSatisfy { $0.contains(" → ") && !$0.contains("000000") }, "\(cohortLabels)")
        let cohorts = CSVReadBack.records(try #require(files["price_change_churn.csv"])).count - 1
        #expect(cohortLabels.count == cohorts, "one label per price-change cohort")
    }

    @Test func theCoverHeadlineEqualsTheCSVs() throws {
        let (harness, files, book) = try Self.written("cover")

        // The cover's headline: the as-of month (partial: the world's as-of is mid-month), its MRR bridge in the
        // reporting currency summed over the providers, and its refunds per currency, each equal to the CSV cells.
        try Self.checkHeadline(cover: book.cells(sheet: 1), files: files, month: String(harness.asOf.prefix(7)))
    }

    /// The cover's headline cells against mrr_bridge.csv and refunds.csv for `month`.
    static func checkHeadline(cover: [Int: [Int: XLSXReadBack.Value]], files: [String: [UInt8]], month: String) throws {
        var byKey: [String: XLSXReadBack.Value] = [:]
        for (_, cells) in cover { if case .text(let key)? = cells[0] { byKey[key] = cells[1] } }
        func units(_ key: String, places: Int) throws -> Int64 {
            let value = try #require(byKey[key], "cover row '\(key)'")
            guard case .number(let text) = value, let number = Double(text) else { Issue.record("\(key): \(value)"); return .min }
            return Int64((number * pow(10, Double(places))).rounded())
        }
        /// A CSV amount field (the currency's minor units after the point) in those units.
        func units(_ field: String?) -> Int64 { Int64((field ?? "0").replacingOccurrences(of: ".", with: "")) ?? .max }
        guard case .text(let status)? = byKey["Headline month"] else { Issue.record("no headline month: \(byKey.keys.sorted())"); return }
        #expect(status.hasPrefix(month + " (partial"), "\(status)")
        #expect(byKey["MRR \(month) (partial) in USD"] != nil, "\(byKey.keys.sorted())")

        let bridge = CSVReadBack.records(try #require(files["mrr_bridge.csv"]))
        let header = try #require(bridge.first)
        func at(_ name: String, _ header: [String?]) throws -> Int { try #require(header.firstIndex(of: name), "\(name)") }
        let rows = try bridge.dropFirst().filter { try $0[at("month", header)] == month && $0[at("view", header)] == "reporting" && $0[at("currency", header)] == "USD" }
        #expect(!rows.isEmpty)
        var sums: [String: Int64] = [:]
        for (column, label) in [("start_mrr", "MRR at the start"), ("new", "+ new"), ("expansion", "+ expansion"), ("reactivation", "+ reactivation"),
                                ("contraction", "− contraction"), ("churn", "− churn"), ("fx", "+ FX"), ("mrr", "MRR at the end")] {
            let index = try at(column, header)
            sums[column] = rows.reduce(0) { $0 + units($1[index]) }
            #expect(try units("  " + label, places: 2) == sums[column], "\(label)")
        }
        let net = (sums["new"] ?? 0) + (sums["expansion"] ?? 0) + (sums["reactivation"] ?? 0) - (sums["contraction"] ?? 0) - (sums["churn"] ?? 0)
        #expect(try units("  Net new MRR (new + expansion + reactivation − contraction − churn)", places: 2) == net)
        #expect((sums["mrr"] ?? 0) > 0, "the world has MRR in its as-of month")

        let refunds = CSVReadBack.records(try #require(files["refunds.csv"]))
        let columns = try #require(refunds.first)
        var perCurrency: [String: (count: Int64, units: Int64)] = [:]
        for record in refunds.dropFirst() where try record[at("view", columns)] == "by_refund_month" && record[at("month", columns)] == month
            && record[at("refund_kind", columns)] != "FAMILY_REVOKE" {
            let code = try record[at("currency", columns)].flatMap { $0 } ?? "?"
            let count = Int64(try record[at("refunds_count", columns)].flatMap { $0 } ?? "") ?? -1
            perCurrency[code, default: (0, 0)].count += count
            perCurrency[code, default: (0, 0)].units += units(try record[at("refunds", columns)])
        }
        for (code, sum) in perCurrency {
            #expect(byKey["  \(code) count"] == .number(String(sum.count)), "\(code)")
            #expect(try units("  \(code) amount", places: ["JPY": 0, "KRW": 0][code] ?? 2) == sum.units, "\(code)")
        }
        #expect(byKey.keys.filter { $0.hasSuffix(" count") && $0.hasPrefix("  ") }.count == perCurrency.count)
    }

    @Test func theCohortsSheetIsItsCSVPivotedIntoTriangles() throws {
        let (_, files, book) = try Self.written("cohorts")
        let csv = CSVReadBack.records(try #require(files["cohorts.csv"]))
        let expected = try Self.triangle(csv)
        #expect(expected.rows.count >= 3, "the world has cohorts")
        let cells = book.cells(sheet: try #require(book.sheetNames.firstIndex(of: "Cohorts")) + 1)
        #expect((0..<expected.header.count).map { cells[1]?[$0] } == expected.header.map { .text($0) })
        #expect(cells.keys.max() == expected.rows.count + 1, "no row beyond the triangles")
        for (offset, row) in expected.rows.enumerated() {
            let read = cells[offset + 2] ?? [:]
            #expect(read.keys.sorted() == row.keys.sorted(), "sheet row \(offset + 2): columns \(read.keys.sorted()) vs \(row.keys.sorted())")
            for (column, field) in row {
                switch read[column] {
                case .text(let text)?: #expect(text == field, "sheet row \(offset + 2) column \(column)")
                case .number(let number)?: #expect(Double(number) == Double(field), "sheet row \(offset + 2) column \(column): \(number) vs \(field)")
                case nil: Issue.record("sheet row \(offset + 2) column \(column): empty, the CSV has \(field)")
                }
            }
        }
    }

    /// The Cohorts sheet as the CSV says it must be (Reports/README.md, "Workbook"): the header, then per measure
    /// (subscriber retention, revenue retention, LTV to date) one row per cohort in the CSV's order, its start month,
    /// provider, currency, size, the measure's name, and in column `5 + k` the CSV's field k months after its start.
    static func triangle(_ csv: [[String?]]) throws -> (header: [String], rows: [[Int: String]]) {
        let header = try #require(csv.first)
        func at(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "cohorts.csv has \(name)") }
        let keys = try ["cohort_month", "provider", "currency", "cohort_subscribers"].map(at), since = try at("months_since_start")
        let measures = try [("subscriber retention", at("subscriber_retention_rate")), ("revenue retention", at("revenue_retention_rate")),
                            ("LTV to date", at("ltv"))]
        var cohorts: [[String]] = [], values: [[String]: [Int: [Int: String]]] = [:]
        var widest = 0
        for record in csv.dropFirst() {
            let key = keys.map { record[$0] ?? "" }, k = try #require(Int(record[since] ?? ""))
            if values[key] == nil { cohorts.append(key) }
            for (m, measure) in measures.enumerated() { values[key, default: [:]][m, default: [:]][5 + k] = record[measure.1] }
            widest = max(widest, k)
        }
        let rows = measures.enumerated().flatMap { m, measure in
            cohorts.map { key -> [Int: String] in
                var row: [Int: String] = [4: measure.0]
                for (column, field) in key.enumerated() { row[column] = field }
                for (column, field) in values[key]?[m] ?? [:] { row[column] = field }
                return row
            }
        }
        return (["cohort_month", "provider", "currency", "cohort_subscribers", "measure"] + (0...widest).map { "month \($0)" }, rows)
    }

    /// A sheet reference with the quotes Excel puts around some sheet names taken off (and their doubled quotes undone).
    static func unquoted(_ reference: String) -> String {
        guard reference.hasPrefix("'"), let end = reference.range(of: "'!", options: .backwards) else { return reference }
        return String(reference[reference.index(after: reference.startIndex)..<end.lowerBound]).replacingOccurrences(of: "''", with: "'")
            + String(reference[reference.index(after: end.lowerBound)...])
    }

    /// Excel's column letters of the 1-based column `number`.
    static func letters(_ number: Int) -> String {
        var number = number, result = ""
        while number > 0 {
            let digit = (number - 1) % 26
            result = String(UnicodeScalar(UInt8(65 + digit))) + result
            number = (number - 1) / 26
        }
        return result
    }
}

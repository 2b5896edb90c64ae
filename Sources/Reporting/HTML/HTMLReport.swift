import Foundation
import XLSX

/// `report.html`: one self-contained page per build-reports run beside the CSVs, for reading in any browser offline
/// and printing. It holds the cover's headline numbers, every chart of the workbook as inline SVG, the summary reports'
/// exact figures (the CSV's own text, so a figure found here is found there), and the run's as-of, basis, definitions
/// and hashes. Nothing is loaded from anywhere: no script, no external style, font or image, and a content security
/// policy that forbids any request.
struct HTMLReport {
    /// The file name, beside the CSVs.
    static let fileName = "report.html"
    /// The reports shown as tables, in this order, and the rows shown (all when no filter): the summaries a finance
    /// lead reads first. Their rows are kept whole by the job, as a charted report's are.
    static let tables: [(report: String, filter: (column: String, value: String)?)] = [
        ("kpis", ("provider", "ALL")),
        ("mrr_bridge", ("view", "reporting")),
        ("refunds", ("view", "by_refund_month")),
        ("grace_hold_recovery", nil),
        ("price_change_churn", nil),
        ("reconciliation", nil),
    ]
    /// At most this many rows of one report are shown; the rest are in its CSV.
    static let maxRows = 400

    /// One table: the report, its formatter (written columns) and rows as the server returned them.
    struct Table {
        let definition: ReportDefinition
        let formatter: ReportFormatter
        let table: ReportTable
    }

    /// The page title.
    let title: String
    /// One line under the title: as-of, basis, period, currency.
    let subtitle: String
    /// The month-end pack, when the run had `kpis`.
    let pack: MonthEndPack.Block?
    /// The cover's headline rows (label, cell).
    let headline: [(String, Cell)]
    /// The charts, each with the sheet name of its report.
    let charts: [(sheet: String, block: ChartBlock)]
    /// The reports shown as tables.
    let tables: [Table]
    /// The cover's other rows: metadata, definitions, per report its rows and hashes.
    let run: [(String, Cell)]

    /// The whole document.
    func render() throws -> String {
        var html: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\"><head><meta charset=\"utf-8\">",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>\(HTMLText.escape(title))</title>",
            "<style>\(Self.style)</style>",
            "</head><body>",
            "<header><h1>\(HTMLText.escape(title))</h1><p class=\"subtitle\">\(HTMLText.escape(subtitle))</p></header>",
            "<nav><a href=\"#headline\">Headline</a> · <a href=\"#charts\">Charts</a> · <a href=\"#tables\">Figures</a> · "
                + "<a href=\"#run\">Run and definitions</a></nav>",
        ]
        html.append("<section id=\"headline\"><h2>Headline</h2>")
        if let pack { html.append(Self.pack(pack)) }
        html.append(Self.pairs(headline, id: "headline-table", key: "headline"))
        html.append("</section>")
        html.append("<section id=\"charts\"><h2>Charts</h2>")
        if charts.isEmpty { html.append("<p>No chart was drawn (see the run notes below).</p>") }
        for (sheet, block) in charts {
            html.append("<figure><figcaption>\(HTMLText.escape(block.chart.title)) <span class=\"source\">(\(HTMLText.escape(sheet)))</span></figcaption>")
            html.append(SVGChart(block: block).render())
            html.append(legend(block))
            if let note = block.note { html.append("<p class=\"note\">\(HTMLText.escape(note))</p>") }
            html.append("</figure>")
        }
        html.append("</section>")
        html.append("<section id=\"tables\"><h2>Figures</h2>")
        for table in tables { html.append(try render(table)) }
        html.append("</section>")
        html.append("<section id=\"run\"><h2>Run and definitions</h2>")
        html.append(Self.pairs(run, id: "run-table", key: "run"))
        html.append("</section></body></html>")
        return html.joined(separator: "\n") + "\n"
    }

    /// The legend of a chart: a swatch and the series name each.
    func legend(_ block: ChartBlock) -> String {
        let chart = SVGChart(block: block)
        let items = block.seriesNames.enumerated().map { index, name in
            "<li><span class=\"swatch\" style=\"background:\(chart.color(index))\"></span>\(HTMLText.escape(name))</li>"
        }
        return "<ul class=\"legend\">" + items.joined() + "</ul>"
    }

    /// A report's table: its written columns and, for each shown row, the CSV's text of every cell.
    func render(_ table: Table) throws -> String {
        let name = table.definition.name
        let filter = Self.tables.first { $0.report == name }?.filter
        let filterAt = filter.flatMap { table.table.index(of: $0.column) }
        var lines = ["<h3 id=\"report-\(HTMLText.escape(name))\">\(HTMLText.escape(table.definition.sheet))</h3>",
                     "<p class=\"summary\">\(HTMLText.escape(table.definition.summary))"
                        + (filter.map { " Rows with \($0.column) = \($0.value)." } ?? "") + "</p>"]
        let rows = table.table.rows.enumerated().filter { _, row in
            guard let filter, let filterAt else { return true }
            return row[filterAt] == filter.value
        }
        let shownColumns = table.formatter.columns.enumerated().filter { $0.element.content != .micros }
        lines.append("<table class=\"figures\" data-report=\"\(HTMLText.escape(name))\"><thead><tr>"
            + shownColumns.map { "<th>\(HTMLText.escape($0.element.name))</th>" }.joined() + "</tr></thead><tbody>")
        for (number, row) in rows.prefix(Self.maxRows) {
            let cells = try table.formatter.format(row, rowNumber: number + 1)
            lines.append("<tr>" + shownColumns.map { index, column in
                let text = HTMLText.escape(cells[index].csv ?? "")
                let numeric = HTMLText.isNumber(cells[index].cell)
                return "<td data-column=\"\(HTMLText.escape(column.name))\"\(numeric ? " class=\"n\"" : "")>\(text)</td>"
            }.joined() + "</tr>")
        }
        lines.append("</tbody></table>")
        if rows.isEmpty { lines.append("<p class=\"note\">No rows.</p>") }
        if rows.count > Self.maxRows {
            lines.append("<p class=\"note\">The first \(Self.maxRows) of \(rows.count) rows; every row is in \(HTMLText.escape(name)).csv.</p>")
        }
        return lines.joined(separator: "\n")
    }

    /// The month-end pack as a table: label, the month before, the month, the change; each value cell carries the
    /// line's label and its month in `data-pack` / `data-month`.
    static func pack(_ pack: MonthEndPack.Block) -> String {
        let heading = pack.heading
        var lines = ["<h3>\(HTMLText.escape(heading[0]))</h3>", "<table class=\"pack\" id=\"pack-table\"><thead><tr><th></th>"
            + heading.dropFirst().map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead><tbody>"]
        for line in pack.lines {
            let trimmed = line.label.trimmingCharacters(in: .whitespaces)
            let cells = zip(heading.dropFirst(), [line.previous, line.current, line.change]).map { month, cell -> String in
                let numeric = HTMLText.isNumber(cell)
                return "<td data-pack=\"\(HTMLText.escape(trimmed))\" data-month=\"\(HTMLText.escape(month))\"\(numeric ? " class=\"n\"" : "")>"
                    + HTMLText.escape(HTMLText.shown(cell)) + "</td>"
            }
            lines.append("<tr><th class=\"\(line.label.hasPrefix("  ") ? "sub" : "top")\">\(HTMLText.escape(trimmed))</th>" + cells.joined() + "</tr>")
        }
        lines.append("</tbody></table>")
        return lines.joined(separator: "\n")
    }

    /// A two-column table of (label, cell) rows; each value cell carries its label in `data-<key>` for tools that read
    /// the page.
    static func pairs(_ rows: [(String, Cell)], id: String, key: String) -> String {
        var lines = ["<table class=\"pairs\" id=\"\(id)\"><tbody>"]
        for (label, cell) in rows {
            let shown = HTMLText.shown(cell)
            let numeric = HTMLText.isNumber(cell)
            let trimmed = label.trimmingCharacters(in: .whitespaces)
            lines.append("<tr><th class=\"\(label.hasPrefix("  ") ? "sub" : "top")\">\(HTMLText.escape(trimmed))</th>"
                + "<td data-\(key)=\"\(HTMLText.escape(trimmed))\"\(numeric ? " class=\"n\"" : "")>\(HTMLText.escape(shown))</td></tr>")
        }
        lines.append("</tbody></table>")
        return lines.joined(separator: "\n")
    }

    /// The page's only style: readable on screen, A4 landscape when printed, charts never split across pages.
    static let style = """
    body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px;color:#222}
    h1{font-size:22px;margin:0}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:28px}
    h3{font-size:15px;margin:20px 0 4px}.subtitle,.summary,.note,.source{color:#555}.note{font-size:12px}
    nav{margin:8px 0 0;font-size:13px}table{border-collapse:collapse;font-size:12px}table.pairs{max-width:960px}
    th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}
    table.pairs th.top,table.pack th.top{font-weight:600}table.pairs th.sub,table.pack th.sub{font-weight:400;padding-left:18px}
    thead th{background:#f3f3f3;position:sticky;top:0}
    figure{margin:12px 0 24px;break-inside:avoid;page-break-inside:avoid}figcaption{font-weight:600;margin-bottom:4px}
    svg.chart{width:100%;max-width:960px;height:auto;font-size:11px;font-family:inherit}
    ul.legend{list-style:none;padding:0;margin:4px 0;font-size:12px}ul.legend li{display:inline-block;margin-right:14px}
    .swatch{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
    @page{size:A4 landscape;margin:12mm}
    @media print{body{margin:0;font-size:11px}nav{display:none}thead th{position:static}
    thead{display:table-header-group}tr{break-inside:avoid}section{break-before:page}section#headline{break-before:auto}}
    """
}

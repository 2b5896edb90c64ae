import XLSX

/// The run's one XLSX workbook: a cover sheet first, then (when the catalogue draws any) the "Charts" sheet holding
/// every chart, two to a printed page, one sheet per report (the summary sheets first: `ReportCatalogue.summarySheets`),
/// then the "Chart data" sheet the charts read. Written in constant-memory mode
/// (every sheet streams its rows in order), so a large report costs no memory. Every sheet prints landscape on A4,
/// one page wide, with the sheet name and "Page x of y" in the footer; a report sheet repeats its header row and
/// prints its columns only; the cover fits one page.
final class ReportWorkbook {
    /// Excel's last row number for data under the header.
    static let maxDataRows = Worksheet.maxRows - 1
    static let coverName = "Cover"
    static let chartsName = "Charts"
    static let chartDataName = "Chart data"
    /// Default rows one chart is high on the Charts sheet (20 pixels each: 260 pixels).
    static let chartRows = 13
    /// Rows one chart takes on the Charts sheet: its heading row, then the chart and a gap row.
    static let chartSlotRows = chartRows + 2
    /// Columns one chart spans on the Charts sheet (64-pixel default columns: 896 pixels).
    static let chartSlotColumns = 14
    /// Charts per printed page of the Charts sheet: two slots (30 default rows, 6.25 inches) fit the 6.77 inches
    /// between A4 landscape's margins at full size, and 896 pixels fit its width.
    static let chartsPerPage = 2

    let workbook: Workbook
    let cover: Worksheet
    /// The sheet every chart is drawn on; nil when the catalogue has no chart.
    private let charts: Worksheet?
    private var chartsRow = 1
    private var chartStarts: [Int] = []
    private var chartData: Worksheet?
    private var chartDataRow = 0
    private var chartDataColumns = 1

    /// A workbook written to `path` with the document time `created` (the as-of instant, so reruns are identical);
    /// `withCharts` adds the Charts sheet after the cover.
    init(path: String, created: Int64, title: String, temporaryDirectory: String, withCharts: Bool) throws {
        workbook = try Workbook(path: path, options: WorkbookOptions(
            created: created, constantMemory: true, temporaryDirectory: temporaryDirectory, title: title, author: "build-reports"))
        cover = try workbook.addWorksheet(Self.coverName)
        if withCharts {
            let sheet = try workbook.addWorksheet(Self.chartsName)
            try sheet.writeHeader(["Charts: each drawn from its report's rows (copied to the 'Chart data' sheet)"], row: 0,
                                  freeze: false, autofilter: false)
            // Column A keeps Excel's default width: the headings run over the empty cells to their right, and the
            // charts anchored at A keep their size on the printed page.
            try sheet.setColumnWidth(0, characters: 8.43)
            charts = sheet
        } else {
            charts = nil
        }
    }

    /// Adds the sheet of a report with its header (frozen, filtered, repeated on every printed page) and its
    /// `*_micros` columns in a collapsed outline group.
    func addReportSheet(_ name: String, columns: [OutputColumn]) throws -> Worksheet {
        let sheet = try addSheet(name, header: columns.map(\.name))
        // The exact integer micros beside each amount are for machines and reconciliation; a reader sees the amount in
        // the currency's digits, and the micros one click away (the outline's +), never on the printed page.
        try sheet.collapseColumns(columns.enumerated().filter { $0.element.content == .micros }.map(\.offset))
        return sheet
    }

    /// Adds the Cohorts sheet holding `triangle`, printed like a report sheet.
    func addTriangleSheet(_ name: String, triangle: CohortTriangle) throws -> Worksheet {
        let sheet = try addSheet(name, header: triangle.header)
        for (offset, row) in triangle.rows.enumerated() { try sheet.writeRow(row, row: offset + 1) }
        return sheet
    }

    /// A sheet with `header` on its first row (frozen, filtered, repeated on every printed page), printing its columns.
    private func addSheet(_ name: String, header: [String]) throws -> Worksheet {
        let sheet = try workbook.addWorksheet(name)
        try sheet.writeHeader(header)
        try sheet.setPrint(PrintSetup(repeatedRows: 0...0, printedColumns: max(1, header.count)))
        return sheet
    }

    /// Copies `block` to the chart-data sheet and draws its chart on the Charts sheet under a heading naming the
    /// report's `sheet`, `chartsPerPage` charts to a printed page.
    func drawChart(_ block: ChartBlock, report: String, sheet: String) throws {
        guard let charts else { return }
        if chartData == nil { chartData = try workbook.addWorksheet(Self.chartDataName) }
        guard let data = chartData else { return }
        let top = chartDataRow
        try data.writeHeader(["\(report): \(block.chart.title)"], row: top, freeze: false, autofilter: false)
        try data.writeHeader([block.chart.categoryTitle] + block.seriesNames, row: top + 1, freeze: false, autofilter: false)
        for (offset, category) in block.categories.enumerated() {
            try data.write(.text(category), row: top + 2 + offset, column: 0)
            try data.writeRow(block.values[offset], row: top + 2 + offset, firstColumn: 1)
        }
        let first = top + 2, last = top + 1 + block.categories.count
        let series = block.seriesNames.enumerated().map { index, name in
            ChartSeries(name: name, categories: .column(0, rows: first...last, of: Self.chartDataName),
                        values: .column(index + 1, rows: first...last, of: Self.chartDataName), color: block.seriesColors[index])
        }
        try charts.writeHeader(["Sheet '\(sheet)': \(block.chart.title)"], row: chartsRow, freeze: false, autofilter: false)
        try charts.insertChart(ChartSpec(kind: block.chart.kind, title: block.chart.title, categoryAxis: block.chart.categoryTitle,
                                         valueAxis: block.chart.valueAxis, valueFormat: block.valueFormat, series: series,
                                         widthScale: Double(Self.chartSlotColumns * 64) / 480,
                                         heightScale: Double(Self.chartRows * 20) / 288, categoryLabelsLow: block.chart.drawsLosses),
                               row: chartsRow + 1, column: 0)
        chartStarts.append(chartsRow)
        chartsRow += Self.chartSlotRows
        chartDataRow = last + 2
        chartDataColumns = max(chartDataColumns, 1 + block.seriesNames.count)
    }

    /// Writes the cover: a title, then from the third row the month-end `pack` (a heading row, then per line the
    /// label, the month before, the month and the change) and a blank row, then the (key, value) `rows`; it prints on
    /// one page.
    func writeCover(title: String, pack: MonthEndPack.Block?, rows: [(String, Cell)]) throws {
        try cover.writeHeader([title], row: 0, freeze: false, autofilter: false)
        var row = 2
        if let pack {
            try cover.writeHeader(pack.heading, row: row, freeze: false, autofilter: false)
            for line in pack.lines {
                row += 1
                try cover.writeHeader([line.label], row: row, freeze: false, autofilter: false)
                try cover.writeRow([line.previous, line.current, line.change], row: row, firstColumn: 1)
            }
            row += 2
        }
        for entry in rows {
            try cover.writeHeader([entry.0], row: row, freeze: false, autofilter: false)
            try cover.write(entry.1, row: row, column: 1)
            row += 1
        }
        try cover.setPrint(PrintSetup(pagesWide: 1, pagesTall: 1, printedColumns: pack == nil ? 2 : 4))
    }

    /// Sets the print setup of the Charts and Chart data sheets, then writes the file.
    func close() throws {
        if let charts {
            // The print area reaches the last chart's bottom, below the last written (heading) row.
            let pageStarts = stride(from: Self.chartsPerPage, to: chartStarts.count, by: Self.chartsPerPage).map { chartStarts[$0] }
            try charts.setPrint(PrintSetup(printedColumns: Self.chartSlotColumns, printedRows: chartsRow, pageBreaksBefore: pageStarts))
        }
        try chartData?.setPrint(PrintSetup(repeatedRows: nil, printedColumns: chartDataColumns))
        try workbook.close()
    }
}

import XLSX

/// The run's one XLSX workbook: a cover sheet first, one sheet per report, then the "Chart data" sheet the charts
/// read. Written in constant-memory mode (every sheet streams its rows in order), so a large report costs no memory.
final class ReportWorkbook {
    /// Excel's last row number for data under the header.
    static let maxDataRows = Worksheet.maxRows - 1
    static let coverName = "Cover"
    static let chartDataName = "Chart data"

    let workbook: Workbook
    let cover: Worksheet
    private var chartData: Worksheet?
    private var chartDataRow = 0

    /// A workbook written to `path` with the document time `created` (the as-of instant, so reruns are identical).
    init(path: String, created: Int64, title: String, temporaryDirectory: String) throws {
        workbook = try Workbook(path: path, options: WorkbookOptions(
            created: created, constantMemory: true, temporaryDirectory: temporaryDirectory, title: title, author: "build-reports"))
        cover = try workbook.addWorksheet(Self.coverName)
    }

    /// Adds the sheet of a report with its header (frozen, filtered).
    func addReportSheet(_ name: String, columns: [OutputColumn]) throws -> Worksheet {
        let sheet = try workbook.addWorksheet(name)
        try sheet.writeHeader(columns.map(\.name))
        return sheet
    }

    /// Copies `block` to the chart-data sheet and draws its chart on `sheet` at (`row`, `column`).
    func drawChart(_ block: ChartBlock, report: String, on sheet: Worksheet, row: Int, column: Int) throws {
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
                        values: .column(index + 1, rows: first...last, of: Self.chartDataName))
        }
        try sheet.insertChart(ChartSpec(kind: block.chart.kind, title: block.chart.title, categoryAxis: block.chart.categoryTitle,
                                        valueAxis: block.chart.valueAxis, valueFormat: block.valueFormat, series: series),
                              row: row, column: column)
        chartDataRow = last + 2
    }

    /// Writes the cover: a title, then (key, value) rows from the third row.
    func writeCover(title: String, rows: [(String, Cell)]) throws {
        try cover.writeHeader([title], row: 0, freeze: false, autofilter: false)
        for (offset, entry) in rows.enumerated() {
            try cover.writeHeader([entry.0], row: offset + 2, freeze: false, autofilter: false)
            try cover.write(entry.1, row: offset + 2, column: 1)
        }
    }

    /// Writes the file.
    func close() throws { try workbook.close() }
}

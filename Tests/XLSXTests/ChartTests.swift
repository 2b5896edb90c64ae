import Testing
@testable import XLSX

/// Native charts land in the package as chart parts with the right type and the series' sheet ranges.
@Suite struct ChartTests {
    /// 24 months of MRR with a movements block and the five chart kinds the reports draw.
    static func writeCharts(to path: String) throws {
        let workbook = try Workbook(path: path, options: WorkbookOptions(created: WorkbookTests.created))
        let data = try workbook.addWorksheet("MRR bridge")
        try data.writeHeader(["month", "mrr", "new", "churn"])
        for month in 1...24 {
            try data.writeRow([.date(CalendarDay(year: 2024 + (month - 1) / 12, month: (month - 1) % 12 + 1, day: 1)),
                               .money(micros: Int64(month) * 1_000_000_000, places: 2), .money(micros: 50_000_000, places: 2),
                               .money(micros: -20_000_000, places: 2)], row: month)
        }
        let charts = try workbook.addWorksheet("Charts")
        let months = CellRange.column(0, rows: 1...24, of: "MRR bridge")
        try charts.insertChart(ChartSpec(kind: .line, title: "MRR", categoryAxis: "Month", valueAxis: "USD", valueFormat: "#,##0",
                                         series: [ChartSeries(name: "MRR", categories: months, values: .column(1, rows: 1...24, of: "MRR bridge"))]),
                               row: 0, column: 0)
        try charts.insertChart(ChartSpec(kind: .stackedColumn, title: "Movements", series: [
            ChartSeries(name: "New", categories: months, values: .column(2, rows: 1...24, of: "MRR bridge")),
            ChartSeries(name: "Churn", categories: months, values: .column(3, rows: 1...24, of: "MRR bridge")),
        ]), row: 20, column: 0)
        try charts.insertChart(ChartSpec(kind: .bar, title: "Grace / hold funnel",
                                         series: [ChartSeries(name: "Subscriptions", categories: months, values: .column(1, rows: 1...5, of: "MRR bridge"))]),
                               row: 40, column: 0)
        try workbook.close()
    }

    @Test func chartPartsHoldTheTypeAndTheSeriesRanges() throws {
        let path = try temporaryDirectory().appendingPathComponent("charts.xlsx").path
        try Self.writeCharts(to: path)
        let book = try WorkbookReader(path: path)
        let line = book.parts["xl/charts/chart1.xml"] ?? ""
        #expect(line.contains("<c:lineChart>"))
        #expect(line.contains("<c:f>'MRR bridge'!$A$2:$A$25</c:f>"))
        #expect(line.contains("<c:f>'MRR bridge'!$B$2:$B$25</c:f>"))
        #expect(line.contains("<a:t>MRR</a:t>") && line.contains("<a:t>Month</a:t>") && line.contains("<a:t>USD</a:t>"))
        #expect(line.contains(##"<c:numFmt formatCode="#,##0" sourceLinked="0"/>"##))
        let stacked = book.parts["xl/charts/chart2.xml"] ?? ""
        #expect(stacked.contains(#"<c:barDir val="col"/>"#) && stacked.contains(#"<c:grouping val="stacked"/>"#))
        #expect(stacked.contains("<c:f>'MRR bridge'!$C$2:$C$25</c:f>") && stacked.contains("<c:f>'MRR bridge'!$D$2:$D$25</c:f>"))
        let bar = book.parts["xl/charts/chart3.xml"] ?? ""
        #expect(bar.contains(#"<c:barDir val="bar"/>"#) && bar.contains(#"<c:grouping val="clustered"/>"#))
        // The charts hang off the Charts sheet's drawing, not the data sheet.
        #expect(book.parts["xl/worksheets/_rels/sheet2.xml.rels"]?.contains("drawing1.xml") == true)
        #expect(book.parts["xl/worksheets/_rels/sheet1.xml.rels"] == nil)
        #expect(book.parts["[Content_Types].xml"]?.contains("/xl/charts/chart3.xml") == true)
    }

    @Test func aChartRefusesUnknownSheetsEmptySeriesAndFormulaText() throws {
        let path = try temporaryDirectory().appendingPathComponent("bad.xlsx").path
        let workbook = try Workbook(path: path, options: WorkbookOptions(created: WorkbookTests.created))
        let sheet = try workbook.addWorksheet("Data")
        let range = CellRange.column(0, rows: 1...3, of: "Data")
        let elsewhere = CellRange.column(0, rows: 1...3, of: "Nope")
        #expect(throws: XLSXError.self) {
            try sheet.insertChart(ChartSpec(kind: .line, title: "t", series: [ChartSeries(name: "s", categories: range, values: elsewhere)]), row: 5, column: 0)
        }
        #expect(throws: XLSXError.self) { try sheet.insertChart(ChartSpec(kind: .line, title: "t", series: []), row: 5, column: 0) }
        #expect(throws: XLSXError.self) {
            try sheet.insertChart(ChartSpec(kind: .line, title: "=A1", series: [ChartSeries(name: "s", categories: range, values: range)]), row: 5, column: 0)
        }
        try workbook.close()
        #expect(try WorkbookReader(path: path).parts["xl/charts/chart1.xml"] == nil)
    }
}

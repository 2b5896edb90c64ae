import CXlsxWriter

extension Worksheet {
    /// Draws `chart` with its top-left corner at (`row`, `column`) of this sheet. Every range must lie on a sheet
    /// of this workbook; names and titles are plain text (a leading `=` would make the library read a formula).
    public func insertChart(_ chart: ChartSpec, row: Int, column: Int) throws {
        let operation = "insert chart '\(chart.title)' on sheet '\(name)'"
        try checkPosition(row, column, ordered: false)
        guard !chart.series.isEmpty else { throw XLSXError(operation, "a chart needs at least one series") }
        let texts = [chart.title, chart.categoryAxis, chart.valueAxis].compactMap { $0 } + chart.series.map(\.name)
        if let formula = texts.first(where: { $0.hasPrefix("=") || $0.utf8.contains(0) }) {
            throw XLSXError(operation, "chart text \"\(formula)\" would be read as a formula or cut at NUL")
        }
        for range in chart.series.flatMap({ [$0.categories, $0.values] }) {
            guard handle.sheetNames.contains(range.sheet) else { throw XLSXError(operation, "no sheet named '\(range.sheet)' in the workbook") }
            guard range.firstRow >= 0, range.firstColumn >= 0, range.firstRow <= range.lastRow, range.firstColumn <= range.lastColumn,
                  range.lastRow < Self.maxRows, range.lastColumn < Self.maxColumns else {
                throw XLSXError(operation, library: LXW_ERROR_WORKSHEET_INDEX_OUT_OF_RANGE)
            }
        }
        let workbook = try handle.live(operation)
        guard let pointer = workbook_add_chart(workbook, chart.kind.library) else {
            throw XLSXError(operation, library: LXW_ERROR_MEMORY_MALLOC_FAILED)
        }
        chart_title_set_name(pointer, ExcelText.escaped(chart.title))
        if let axis = chart.categoryAxis { chart_axis_set_name(pointer.pointee.x_axis, ExcelText.escaped(axis)) }
        if let axis = chart.valueAxis { chart_axis_set_name(pointer.pointee.y_axis, ExcelText.escaped(axis)) }
        if let format = chart.valueFormat { chart_axis_set_num_format(pointer.pointee.y_axis, format) }
        chart_legend_set_position(pointer, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
        if chart.categoryLabelsLow { chart_axis_set_label_position(pointer.pointee.x_axis, UInt8(LXW_CHART_AXIS_LABEL_POSITION_LOW.rawValue)) }
        for series in chart.series {
            guard let added = chart_add_series(pointer, nil, nil) else { throw XLSXError(operation, library: LXW_ERROR_MEMORY_MALLOC_FAILED) }
            chart_series_set_name(added, ExcelText.escaped(series.name))
            let c = series.categories, v = series.values
            chart_series_set_categories(added, c.sheet, lxw_row_t(c.firstRow), lxw_col_t(c.firstColumn), lxw_row_t(c.lastRow), lxw_col_t(c.lastColumn))
            chart_series_set_values(added, v.sheet, lxw_row_t(v.firstRow), lxw_col_t(v.firstColumn), lxw_row_t(v.lastRow), lxw_col_t(v.lastColumn))
            if let color = series.color, chart.kind != .line {
                guard color <= 0xFF_FFFF else { throw XLSXError(operation, "a colour is 0xRRGGBB, not \(color)") }
                var fill = lxw_chart_fill()
                fill.color = lxw_color_t(color)
                chart_series_set_fill(added, &fill)
            }
        }
        var options = lxw_chart_options()
        options.x_scale = chart.widthScale
        options.y_scale = chart.heightScale
        try XLSXError.check(worksheet_insert_chart_opt(self.pointer, lxw_row_t(row), lxw_col_t(column), pointer, &options), operation)
    }
}

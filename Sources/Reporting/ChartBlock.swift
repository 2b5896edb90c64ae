import XLSX

/// The cells one chart is drawn from, copied out of its report's rows: categories down the first column, one
/// column per series. Built only when every named column exists and no (category, series) pair repeats.
public struct ChartBlock: Sendable {
    /// The chart it draws.
    public let chart: ReportChart
    /// Series names, in order.
    public let seriesNames: [String]
    /// Category labels, in the rows' order.
    public let categories: [String]
    /// `values[category][series]`.
    public let values: [[Cell]]
    /// Why series were left out, if any were.
    public let note: String?

    /// The block of `chart` over `table` with `reportingCurrency` standing for `$currency` in filters, or a reason why
    /// the chart cannot be drawn.
    public static func make(_ chart: ReportChart, table: ReportTable, formatter: ReportFormatter,
                            reportingCurrency: String) throws -> Result<ChartBlock, ChartSkipped> {
        for column in chart.columns where table.index(of: column) == nil {
            return .failure(ChartSkipped(reason: "the report has no column \(column)"))
        }
        let category = table.index(of: chart.category) ?? 0
        let split = chart.seriesColumns.compactMap { table.index(of: $0) }
        let filters = chart.filter.map { (index: table.index(of: $0.key) ?? 0, value: $0.value == "$currency" ? reportingCurrency : $0.value) }
        // Where each value column's shown cell is among the formatted cells (the amount column for micros).
        let shown: [Int] = chart.values.map { name in
            formatter.columns.firstIndex { $0.source == table.index(of: name) && $0.content != .micros } ?? 0
        }
        var categories: [String] = [], categoryIndex: [String: Int] = [:]
        var keys: [String] = [], keyIndex: [String: Int] = [:]
        var cells: [[Int: Cell]] = []
        for (number, row) in table.rows.enumerated() where filters.allSatisfy({ row[$0.index] == $0.value }) {
            let label = row[category] ?? ""
            let key = split.map { row[$0] ?? "" }.joined(separator: " ")
            if categoryIndex[label] == nil { categoryIndex[label] = categories.count; categories.append(label); cells.append([:]) }
            if keyIndex[key] == nil { keyIndex[key] = keys.count; keys.append(key) }
            let formatted = try formatter.format(row, rowNumber: number + 1)
            let c = categoryIndex[label] ?? 0, k = keyIndex[key] ?? 0
            for (v, name) in chart.values.enumerated() {
                let series = k * chart.values.count + v
                guard cells[c][series] == nil else {
                    return .failure(ChartSkipped(reason: "two rows share \(chart.category) '\(label)'"
                                                 + (key.isEmpty ? "" : " and series '\(key)'") + "; charts never add rows up"))
                }
                cells[c][series] = chart.negated.contains(name) ? negate(formatted[shown[v]].cell) : formatted[shown[v]].cell
            }
        }
        guard !categories.isEmpty else { return .failure(ChartSkipped(reason: "no rows to draw")) }
        var names: [String] = []
        for key in keys {
            for name in chart.values {
                let label = ColumnRole.of(name) == .micros ? ColumnRole.amountName(name) : name
                names.append(key.isEmpty ? label : chart.values.count == 1 ? key : label + " " + key)
            }
        }
        let kept = min(names.count, ReportChart.maxSeries)
        let note = names.count > kept ? "\(names.count - kept) of \(names.count) series left out (at most \(kept) per chart)" : nil
        let values = cells.map { row in (0..<kept).map { row[$0] ?? .empty } }
        return .success(ChartBlock(chart: chart, seriesNames: Array(names.prefix(kept)), categories: categories, values: values, note: note))
    }

    static func negate(_ cell: Cell) -> Cell {
        switch cell {
        case .money(let micros, let places): return .money(micros: -micros, places: places)
        case .integer(let value): return .integer(-value)
        case .percent(let value, let places): return .percent(-value, places: places)
        case .number(let value): return .number(-value)
        default: return cell
        }
    }

    /// The value axis number format for the chart's first value column.
    var valueFormat: String {
        switch chart.values.first.map(ColumnRole.of) {
        case .rate: return "0.0%"
        default: return "#,##0"
        }
    }
}

/// Why a chart was not drawn (the run goes on and the cover sheet says so).
public struct ChartSkipped: Error, Sendable {
    /// The reason, for the cover sheet and the log.
    public let reason: String
}

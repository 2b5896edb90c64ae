import JobKit
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
    /// Each series' fill colour (the chart's colour of its value column), nil for the default palette.
    public let seriesColors: [UInt32?]

    /// The text a category label shows for the label columns' `values` of one row: a `*_micros` column as the amount
    /// in the row's currency (`places` decimals) rather than micros, and an `old_x`, `new_x` pair as `old → new`.
    static func label(columns: [String], values: [String?], places: Int) -> String {
        var parts: [String] = []
        var index = 0
        func shown(_ at: Int) -> String {
            guard let text = values[at] else { return "" }
            guard ColumnRole.of(columns[at]) == .micros, let micros = Int64(text),
                  let amount = try? DecimalAmount(micros: micros, places: places) else { return text }
            return amount.exactDecimal
        }
        while index < columns.count {
            let name = columns[index]
            if name.hasPrefix("old_"), index + 1 < columns.count, columns[index + 1] == "new_" + name.dropFirst(4) {
                parts.append(shown(index) + " → " + shown(index + 1))
                index += 2
            } else {
                parts.append(shown(index))
                index += 1
            }
        }
        return parts.joined(separator: " ")
    }

    /// The block of `chart` over `table` with `reportingCurrency` standing for `$currency` in filters, or a reason why
    /// the chart cannot be drawn. A month category equal to `partialMonth` (the as-of month while it runs) is labelled
    /// `<month> (partial)`.
    public static func make(_ chart: ReportChart, table: ReportTable, formatter: ReportFormatter,
                            reportingCurrency: String, partialMonth: String? = nil) throws -> Result<ChartBlock, ChartSkipped> {
        for column in chart.columns where table.index(of: column) == nil {
            return .failure(ChartSkipped(reason: "the report has no column \(column)"))
        }
        if case .ratio = chart.combine, chart.values.count != 1 {
            return .failure(ChartSkipped(reason: "a ratio chart plots one value column"))
        }
        if chart.combine == .sum, let name = chart.values.first(where: { ![.count, .micros].contains(ColumnRole.of($0)) }) {
            return .failure(ChartSkipped(reason: "\(name) is neither a count nor an amount; only those add up"))
        }
        let labels = ([chart.category] + chart.labelColumns).compactMap { table.index(of: $0) }
        let labelNames = labels.map { table.columns[$0] }
        let split = chart.seriesColumns.compactMap { table.index(of: $0) }
        let filters = chart.filter.map { (index: table.index(of: $0.key) ?? 0, value: $0.value == "$currency" ? reportingCurrency : $0.value) }
        var categories: [String] = [], categoryIndex: [String: Int] = [:]
        var keys: [String] = [], keyIndex: [String: Int] = [:]
        var points: [[Int: Point]] = []
        for (number, row) in table.rows.enumerated() where filters.allSatisfy({ row[$0.index] == $0.value }) {
            var label = Self.label(columns: labelNames, values: labels.map { row[$0] }, places: formatter.places(row))
            if chart.categoriesAreMonths, let partialMonth, label == partialMonth { label += " (partial)" }
            let key = split.map { row[$0] ?? "" }.joined(separator: " ")
            if categoryIndex[label] == nil { categoryIndex[label] = categories.count; categories.append(label); points.append([:]) }
            if keyIndex[key] == nil { keyIndex[key] = keys.count; keys.append(key) }
            let c = categoryIndex[label] ?? 0, k = keyIndex[key] ?? 0
            for (v, name) in chart.values.enumerated() {
                let series = k * chart.values.count + v
                let place = "\(chart.categoryTitle) '\(label)'" + (key.isEmpty ? "" : " and series '\(key)'")
                switch try Point.adding(row, rowNumber: number + 1, column: name, chart: chart, to: points[c][series],
                                        table: table, formatter: formatter) {
                case .success(let point): points[c][series] = point
                case .failure(let reason): return .failure(ChartSkipped(reason: "\(place): \(reason.text)"))
                }
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
        let values = points.map { row in
            (0..<kept).map { series -> Cell in
                guard let cell = row[series]?.cell else { return .empty }
                return chart.negated.contains(chart.values[series % chart.values.count]) ? negate(cell) : cell
            }
        }
        let colors = (0..<kept).map { chart.colors[chart.values[$0 % chart.values.count]] }
        return .success(ChartBlock(chart: chart, seriesNames: Array(names.prefix(kept)), categories: categories, values: values, note: note,
                                   seriesColors: colors))
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
        if case .ratio = chart.combine { return "0.0%" }
        switch chart.values.first.map(ColumnRole.of) {
        case .rate: return "0.0%"
        default: return "#,##0"
        }
    }
}

/// One point of a chart while its rows are read: a copied cell, a running sum, or a ratio's sums.
enum Point {
    /// The formatted cell of the one row (`Combine.none`).
    case copied(Cell)
    /// A sum of whole numbers, or of micros in `currency` (nil for counts).
    case sum(Int64, currency: String?, places: Int?)
    /// A ratio's numerator sum, and its denominator per distinct `once` key.
    case ratio(Int64, denominators: [String: Int64])

    /// The cell drawn.
    var cell: Cell {
        switch self {
        case .copied(let cell): return cell
        case .sum(let value, _, let places?): return .money(micros: value, places: places)
        case .sum(let value, _, nil): return .integer(value)
        case .ratio(let numerator, let denominators):
            let denominator = denominators.values.reduce(0, +)
            return denominator == 0 ? .empty : .percent(Double(numerator) / Double(denominator), places: 2)
        }
    }

    /// `point` (nil: none yet) with `row`'s `column` added the way `chart` combines, or why it cannot be.
    static func adding(_ row: [String?], rowNumber: Int, column: String, chart: ReportChart, to point: Point?,
                       table: ReportTable, formatter: ReportFormatter) throws -> Result<Point, ReportReason> {
        func whole(_ name: String) throws -> Int64 {
            guard let text = row[table.index(of: name) ?? 0] else { return 0 }
            guard let value = Int64(text) else {
                throw JobError.failed("report \(formatter.report) row \(rowNumber) column \(name): '\(text)' is not a whole number")
            }
            return value
        }
        switch chart.combine {
        case .none:
            guard point == nil else { return .failure(ReportReason("two rows share it; this chart never adds rows up")) }
            let source = table.index(of: column)
            let shown = formatter.columns.firstIndex { $0.source == source && $0.content != .micros } ?? 0
            return .success(.copied(try formatter.format(row, rowNumber: rowNumber)[shown].cell))
        case .sum:
            let micros = ColumnRole.of(column) == .micros
            let currency = micros ? table.index(of: "currency").flatMap { row[$0] } : nil
            let value = try whole(column)
            guard case .sum(let total, let seen, let places)? = point else {
                return .success(.sum(value, currency: currency, places: micros ? formatter.places(row) : nil))
            }
            guard seen == currency else { return .failure(ReportReason("rows in \(seen ?? "-") and \(currency ?? "-") never add up")) }
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return .failure(ReportReason("the sum overflows")) }
            return .success(.sum(sum, currency: seen, places: places))
        case .ratio(let numerator, let denominator, let once):
            let key = once.map { row[table.index(of: $0) ?? 0] ?? "" }.joined(separator: "\u{1F}")
            var (total, denominators) = (Int64(0), [String: Int64]())
            if case .ratio(let sum, let seen)? = point { (total, denominators) = (sum, seen) }
            let value = try whole(denominator)
            if let seen = denominators[key], seen != value {
                return .failure(ReportReason("\(denominator) differs between rows of the same \(once.joined(separator: ", "))"))
            }
            denominators[key] = value
            return .success(.ratio(total + (try whole(numerator)), denominators: denominators))
        }
    }
}

/// A reason a point cannot be drawn (becomes a `ChartSkipped`).
struct ReportReason: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

/// Why a chart was not drawn (the run goes on and the cover sheet says so).
public struct ChartSkipped: Error, Sendable {
    /// The reason, for the cover sheet and the log.
    public let reason: String
}

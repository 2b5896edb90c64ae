import XLSX

/// A chart a report sheet gets, named by the report's column names: the category column (the x axis, usually
/// `month`), the value columns (one series each), optionally a split of each value into one series per distinct
/// combination of `seriesColumns`, and a row filter. The job copies the selected cells, unchanged (or with the sign
/// flipped for `negated` columns), into a block of the "Chart data" sheet and draws the native chart from it. Unless
/// `combine` says how, it never adds values up, so two rows with the same category and series skip the chart with a note.
public struct ReportChart: Sendable, Equatable {
    /// How the rows sharing a category and series become one point.
    public enum Combine: Sendable, Equatable {
        /// They may not: two such rows skip the chart.
        case none
        /// Added up: whole numbers (`*_count`, `*_subscribers`), or amounts (`*_micros`) when every added row has the
        /// same currency (the chart skips otherwise; never adds two currencies).
        case sum
        /// One rate per point, named by the single value column: the sum of `numerator` over the rows divided by the
        /// sum of `denominator` taken once per distinct combination of `once` (a denominator every row of its cell
        /// repeats, such as the paid transactions of a month, provider and currency); empty when that sum is 0.
        case ratio(numerator: String, denominator: String, once: [String])
    }

    /// The chart type.
    public var kind: ChartKind
    /// The title above the chart.
    public var title: String
    /// The category (x axis) column.
    public var category: String
    /// Further columns whose values are appended to the category label (a cohort named by several columns).
    public var labelColumns: [String]
    /// The value columns, one series each (times the split).
    public var values: [String]
    /// Columns whose distinct value combinations split each value column into series (e.g. `provider`).
    public var seriesColumns: [String]
    /// Only rows whose column equals the value (`currency` may be given as `$currency`: the reporting currency).
    public var filter: [String: String]
    /// Value columns drawn with the sign flipped (outflows below the axis in a stacked bridge).
    public var negated: Set<String>
    /// The value axis name.
    public var valueAxis: String
    /// How rows sharing a category and series combine.
    public var combine: Combine
    /// Fill colours (0xRRGGBB) by value column, for every series of that column (gains apart from losses).
    public var colors: [String: UInt32]
    /// The category axis title; nil: the category column then the label columns.
    public var categoryAxisTitle: String?

    /// A chart of `kind` titled `title` plotting `values` against `category`.
    public init(kind: ChartKind, title: String, category: String = "month", labelColumns: [String] = [], values: [String],
                seriesColumns: [String] = [], filter: [String: String] = [:], negated: Set<String> = [], valueAxis: String,
                combine: Combine = .none, colors: [String: UInt32] = [:], categoryAxisTitle: String? = nil) {
        self.kind = kind
        self.title = title
        self.category = category
        self.labelColumns = labelColumns
        self.combine = combine
        self.values = values
        self.seriesColumns = seriesColumns
        self.filter = filter
        self.negated = negated
        self.valueAxis = valueAxis
        self.colors = colors
        self.categoryAxisTitle = categoryAxisTitle
    }

    /// Every column the chart reads.
    public var columns: [String] {
        var columns = [category] + labelColumns + values + seriesColumns + filter.keys.sorted()
        if case .ratio(let numerator, let denominator, let once) = combine { columns += [numerator, denominator] + once }
        return columns
    }

    /// The category axis title: the category column, then the label columns.
    public var categoryTitle: String { categoryAxisTitle ?? ([category] + labelColumns).joined(separator: " ") }

    /// Whether the categories are months (`month`, `failure_month`, … alone), so the partial month can be marked.
    public var categoriesAreMonths: Bool { category.hasSuffix("month") && labelColumns.isEmpty }

    /// Whether any value is drawn below the axis (its category labels then go to the bottom of the plot).
    public var drawsLosses: Bool { !negated.isEmpty }

    /// At most this many series per chart (a legend beyond it is unreadable); the rest are left out with a note.
    public static let maxSeries = 16
}

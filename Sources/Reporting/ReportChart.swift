import XLSX

/// A chart a report sheet gets, named by the report's column names: the category column (the x axis, usually
/// `month`), the value columns (one series each), optionally a split of each value into one series per distinct
/// combination of `seriesColumns`, and a row filter. The job copies the selected cells, unchanged (or with the sign
/// flipped for `negated` columns), into a block of the "Chart data" sheet and draws the native chart from it; it
/// never adds values up, so two rows with the same category and series skip the chart with a note.
public struct ReportChart: Sendable, Equatable {
    /// The chart type.
    public var kind: ChartKind
    /// The title above the chart.
    public var title: String
    /// The category (x axis) column.
    public var category: String
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

    /// A chart of `kind` titled `title` plotting `values` against `category`.
    public init(kind: ChartKind, title: String, category: String = "month", values: [String], seriesColumns: [String] = [],
                filter: [String: String] = [:], negated: Set<String> = [], valueAxis: String) {
        self.kind = kind
        self.title = title
        self.category = category
        self.values = values
        self.seriesColumns = seriesColumns
        self.filter = filter
        self.negated = negated
        self.valueAxis = valueAxis
    }

    /// Every column the chart reads.
    public var columns: [String] { [category] + values + seriesColumns + filter.keys.sorted() }

    /// At most this many series per chart (a legend beyond it is unreadable); the rest are left out with a note.
    public static let maxSeries = 16
}

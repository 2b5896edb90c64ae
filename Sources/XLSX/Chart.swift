import CXlsxWriter

/// The chart types the reports draw.
public enum ChartKind: Sendable, Equatable {
    /// Lines over categories (MRR over months, refund rate).
    case line
    /// Vertical columns side by side (excess churn per cohort, a funnel drawn as columns).
    case column
    /// Vertical columns stacked (the MRR movements).
    case stackedColumn
    /// Horizontal bars (a funnel drawn top to bottom).
    case bar
    /// Horizontal bars stacked.
    case stackedBar

    var library: UInt8 {
        switch self {
        case .line: return UInt8(LXW_CHART_LINE.rawValue)
        case .column: return UInt8(LXW_CHART_COLUMN.rawValue)
        case .stackedColumn: return UInt8(LXW_CHART_COLUMN_STACKED.rawValue)
        case .bar: return UInt8(LXW_CHART_BAR.rawValue)
        case .stackedBar: return UInt8(LXW_CHART_BAR_STACKED.rawValue)
        }
    }
}

/// A rectangular block of cells on a named sheet (0-based, inclusive).
public struct CellRange: Sendable, Equatable {
    /// The sheet the cells are on.
    public var sheet: String
    /// First row.
    public var firstRow: Int
    /// First column.
    public var firstColumn: Int
    /// Last row.
    public var lastRow: Int
    /// Last column.
    public var lastColumn: Int

    /// The block from (`firstRow`, `firstColumn`) to (`lastRow`, `lastColumn`) on `sheet`.
    public init(sheet: String, firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) {
        self.sheet = sheet
        self.firstRow = firstRow
        self.firstColumn = firstColumn
        self.lastRow = lastRow
        self.lastColumn = lastColumn
    }

    /// Rows `rows` of one `column` of `sheet`.
    public static func column(_ column: Int, rows: ClosedRange<Int>, of sheet: String) -> CellRange {
        CellRange(sheet: sheet, firstRow: rows.lowerBound, firstColumn: column, lastRow: rows.upperBound, lastColumn: column)
    }
}

/// One series of a chart: its legend name, its category labels and its values, both ranges of sheet cells.
public struct ChartSeries: Sendable, Equatable {
    /// The legend name.
    public var name: String
    /// The category (x) labels.
    public var categories: CellRange
    /// The values.
    public var values: CellRange
    /// The fill colour of its columns or bars as 0xRRGGBB; nil for the library's palette (lines keep theirs).
    public var color: UInt32?

    /// A series named `name` plotting `values` against `categories`, filled with `color` if given.
    public init(name: String, categories: CellRange, values: CellRange, color: UInt32? = nil) {
        self.name = name
        self.categories = categories
        self.values = values
        self.color = color
    }
}

/// A native Excel chart: its type, title, axis names, value-axis number format and series.
public struct ChartSpec: Sendable, Equatable {
    /// The chart type.
    public var kind: ChartKind
    /// The title above the chart.
    public var title: String
    /// The category axis name (x for lines and columns, the vertical axis for bars).
    public var categoryAxis: String?
    /// The value axis name.
    public var valueAxis: String?
    /// The value axis number format (e.g. `#,##0` or `0.0%`).
    public var valueFormat: String?
    /// The series, drawn in order.
    public var series: [ChartSeries]
    /// Width relative to 480 pixels.
    public var widthScale: Double
    /// Height relative to 288 pixels.
    public var heightScale: Double
    /// Category labels drawn at the bottom of the plot area rather than at the zero line, so bars below the axis
    /// (losses) do not run through them.
    public var categoryLabelsLow: Bool

    /// A chart of `kind` titled `title` with `series`.
    public init(kind: ChartKind, title: String, categoryAxis: String? = nil, valueAxis: String? = nil, valueFormat: String? = nil,
                series: [ChartSeries], widthScale: Double = 1.5, heightScale: Double = 1.25, categoryLabelsLow: Bool = false) {
        self.kind = kind
        self.title = title
        self.categoryAxis = categoryAxis
        self.valueAxis = valueAxis
        self.valueFormat = valueFormat
        self.series = series
        self.widthScale = widthScale
        self.heightScale = heightScale
        self.categoryLabelsLow = categoryLabelsLow
    }
}

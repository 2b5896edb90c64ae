import Foundation

/// What one `build-reports` run produces: the period, as-of instant, currency, basis, output folder and formats.
public struct ReportSettings: Sendable {
    /// The instant nothing after which is read; the workbook's fixed document time.
    public var asOf: Date
    /// The first month reported (inclusive).
    public var firstMonth: ReportMonth
    /// The last month reported (inclusive; never after the as-of month).
    public var lastMonth: ReportMonth
    /// ISO 4217 code of the reporting currency.
    public var currency: String
    /// Which history rows the reports read.
    public var basis: ReportBasis
    /// Where the files are written.
    public var outputFolder: URL
    /// Where the report SQL files are read from.
    public var sqlFolder: URL
    /// Write one CSV per report.
    public var writeCSV: Bool
    /// Write the XLSX workbook.
    public var writeXLSX: Bool
    /// Write `report.html`, the self-contained page of headline numbers, charts and summary figures (`HTMLReport`).
    public var writeHTML: Bool = false
    /// Put the detail reports' sheets in the workbook too (their CSVs are always written).
    public var detailSheets: Bool = false
    /// Keep identifiers as they are instead of masking them.
    public var rawIdentifiers: Bool
    /// Recompute every month (`--full`) instead of reusing stored complete months.
    public var recomputeAll = false

    /// The as-of month.
    public var asOfMonth: ReportMonth { ReportMonth(containing: asOf) }

    /// The months from the first to the last, as `YYYY-MM … YYYY-MM`.
    public var periodText: String { firstMonth == lastMonth ? "\(firstMonth)" : "\(firstMonth) … \(lastMonth)" }
}

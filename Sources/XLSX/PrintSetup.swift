/// How a worksheet prints: orientation, paper, fitting to pages, rows repeated on every page, the footer and the
/// print area. Every part is a sheet-level setting written when the workbook closes, so it works in constant-memory
/// mode (only cells must come in row order).
public struct PrintSetup: Sendable, Equatable {
    /// Landscape rather than portrait.
    public var landscape: Bool
    /// Excel's paper code (9: A4, 1: US Letter).
    public var paper: UInt8
    /// Pages wide the print area is scaled to fit (0: as many as needed).
    public var pagesWide: Int
    /// Pages tall the print area is scaled to fit (0: as many as needed).
    public var pagesTall: Int
    /// Rows (0-based, inclusive) printed at the top of every page, such as the header row.
    public var repeatedRows: ClosedRange<Int>?
    /// The footer in Excel's header/footer codes (`&L`, `&C`, `&R` sections; `&A` sheet name, `&P` page, `&N` pages).
    public var footer: String?
    /// The print area's columns (A and the next ones, this many), from the first row to the last row written by the
    /// time the workbook closes; nil prints what Excel finds used.
    public var printedColumns: Int?
    /// The print area's rows from the first, when `printedColumns` is set; nil: through the last row written by close
    /// (a sheet whose charts reach below its last cell names its rows).
    public var printedRows: Int?
    /// Rows (0-based) that start a new printed page, such as each chart's first row.
    public var pageBreaksBefore: [Int]

    /// The footer every report sheet carries: the sheet name on the left, "Page x of y" on the right.
    public static let sheetAndPageFooter = "&L&A&RPage &P of &N"

    /// A setup; by default landscape A4, one page wide, as many tall as needed, the sheet-and-page footer.
    public init(landscape: Bool = true, paper: UInt8 = 9, pagesWide: Int = 1, pagesTall: Int = 0, repeatedRows: ClosedRange<Int>? = nil,
                footer: String? = PrintSetup.sheetAndPageFooter, printedColumns: Int? = nil, printedRows: Int? = nil,
                pageBreaksBefore: [Int] = []) {
        self.landscape = landscape
        self.paper = paper
        self.pagesWide = pagesWide
        self.pagesTall = pagesTall
        self.repeatedRows = repeatedRows
        self.footer = footer
        self.printedColumns = printedColumns
        self.printedRows = printedRows
        self.pageBreaksBefore = pageBreaksBefore
    }
}

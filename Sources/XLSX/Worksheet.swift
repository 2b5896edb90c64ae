import CXlsxWriter

/// One worksheet of a `Workbook`. Cells are written by row and column (both from 0); in constant-memory mode rows
/// must come in order (a cell of an earlier row throws instead of being silently dropped, as the library would).
/// Column widths are fitted to what was written unless set explicitly.
public final class Worksheet {
    /// The sheet's name as shown on its tab.
    public let name: String
    let handle: WorkbookHandle
    let pointer: UnsafeMutablePointer<lxw_worksheet>
    let constantMemory: Bool
    /// The highest row written so far (-1 before the first).
    public private(set) var lastRow = -1
    /// Widest content seen per column, in characters.
    var contentWidths: [Int] = []
    var explicitWidths: [Int: Double] = [:]
    /// Columns in a collapsed outline group: hidden on screen and on paper, one click on the outline's `+` away.
    var collapsedColumns: Set<Int> = []
    /// A header row whose autofilter spans the written rows, applied at close.
    var pendingAutofilter: (row: Int, columns: Int)?
    /// The print area's columns and rows (nil: through the last row written), set at close (`setPrint`).
    var pendingPrintArea: (columns: Int, rows: Int?)?

    /// Excel's limits: 1,048,576 rows and 16,384 columns.
    public static let maxRows = 1_048_576
    /// Excel's column limit.
    public static let maxColumns = 16_384

    init(handle: WorkbookHandle, pointer: UnsafeMutablePointer<lxw_worksheet>, name: String, constantMemory: Bool) {
        self.handle = handle
        self.pointer = pointer
        self.name = name
        self.constantMemory = constantMemory
    }

    /// Writes `cell` at (`row`, `column`).
    public func write(_ cell: Cell, row: Int, column: Int) throws {
        try checkPosition(row, column)
        let r = lxw_row_t(row), c = lxw_col_t(column)
        let width: Int
        let status: lxw_error
        switch cell {
        case .empty:
            return
        case .text(let text):
            let escaped = ExcelText.escaped(text)
            width = Self.displayWidth(escaped)
            status = worksheet_write_string(pointer, r, c, escaped, nil)
        case .money(let micros, let places):
            let amount = try DecimalAmount(micros: micros, places: places)
            width = Self.groupedWidth(amount.units.magnitude / UInt64(DecimalAmount.powers[places])) + (places > 0 ? places + 1 : 0)
                + (amount.units < 0 ? 1 : 0)
            status = worksheet_write_number(pointer, r, c, try amount.cellValue(), try handle.format(.money(places: places)))
        case .percent(let fraction, let places):
            guard fraction.isFinite, fraction.magnitude < 1e13 else { throw misuse(row, column, "a percentage must be a finite fraction, not \(fraction)") }
            width = Self.groupedWidth(UInt64((fraction * 100).magnitude)) + (places > 0 ? places + 1 : 0) + 2
            status = worksheet_write_number(pointer, r, c, fraction, try handle.format(.percent(places: places)))
        case .integer(let value):
            guard value.magnitude <= 1 << 53 else { throw misuse(row, column, "\(value) is beyond 2^53, not exact in a spreadsheet number") }
            width = Self.groupedWidth(value.magnitude) + (value < 0 ? 1 : 0)
            status = worksheet_write_number(pointer, r, c, Double(value), try handle.format(.integer))
        case .date(let day):
            width = 10
            status = worksheet_write_number(pointer, r, c, day.excelSerial, try handle.format(.date))
        case .timestamp(let seconds):
            guard (-2_177_452_800...253_402_300_799).contains(seconds) else { throw misuse(row, column, "instant \(seconds) is outside 1901...9999") }
            width = 19
            let serial = Double(seconds.quotientAndRemainder(dividingBy: 86_400).quotient + 25_569)
                + Double(seconds.quotientAndRemainder(dividingBy: 86_400).remainder) / 86_400
            status = worksheet_write_number(pointer, r, c, serial, try handle.format(.timestamp))
        case .number(let value):
            guard value.isFinite else { throw misuse(row, column, "a number must be finite, not \(value)") }
            width = 11
            status = worksheet_write_number(pointer, r, c, value, nil)
        }
        try XLSXError.check(status, self.cellOperation(row, column))
        if row > lastRow { lastRow = row }
        noteWidth(width, column: column)
    }

    /// Writes `cells` left to right from `firstColumn` on `row`.
    public func writeRow(_ cells: [Cell], row: Int, firstColumn: Int = 0) throws {
        for (offset, cell) in cells.enumerated() { try write(cell, row: row, column: firstColumn + offset) }
    }

    /// Writes bold `titles` on `row` (from column 0), freezes the rows above and including it, and puts an
    /// autofilter on it that spans every row written below it by the time the workbook closes.
    public func writeHeader(_ titles: [String], row: Int = 0, freeze: Bool = true, autofilter: Bool = true) throws {
        for (column, title) in titles.enumerated() {
            try checkPosition(row, column)
            let escaped = ExcelText.escaped(title)
            try XLSXError.check(worksheet_write_string(pointer, lxw_row_t(row), lxw_col_t(column), escaped, try handle.format(.header)),
                                cellOperation(row, column))
            noteWidth(Self.displayWidth(escaped) + 2, column: column) // bold text and the filter button
        }
        if row > lastRow { lastRow = row }
        if freeze { try freezePanes(rows: row + 1) }
        if autofilter, !titles.isEmpty { pendingAutofilter = (row, titles.count) }
    }

    /// Freezes the top `rows` rows and the left `columns` columns.
    public func freezePanes(rows: Int, columns: Int = 0) throws {
        try checkPosition(rows, columns, ordered: false)
        _ = try handle.live("freeze panes of sheet '\(name)'")
        worksheet_freeze_panes(pointer, lxw_row_t(rows), lxw_col_t(columns))
    }

    /// An autofilter over the given block (header row first).
    public func autofilter(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws {
        try checkPosition(firstRow, firstColumn, ordered: false)
        try checkPosition(lastRow, lastColumn, ordered: false)
        _ = try handle.live("autofilter on sheet '\(name)'")
        pendingAutofilter = nil
        try XLSXError.check(worksheet_autofilter(pointer, lxw_row_t(firstRow), lxw_col_t(firstColumn), lxw_row_t(lastRow), lxw_col_t(lastColumn)),
                            "autofilter on sheet '\(name)'")
    }

    /// Sets `column`'s width in characters, overriding the fitted width.
    public func setColumnWidth(_ column: Int, characters: Double) throws {
        try checkPosition(0, column, ordered: false)
        guard characters >= 0, characters <= 255 else { throw misuse(0, column, "a column width must be 0 through 255 characters") }
        explicitWidths[column] = characters
    }

    /// Puts `columns` into a collapsed outline group (level 1): hidden, so neither the screen nor the printed page
    /// shows them until the reader expands the group with the outline's `+`.
    public func collapseColumns(_ columns: [Int]) throws {
        for column in columns { try checkPosition(0, column, ordered: false) }
        collapsedColumns.formUnion(columns)
    }

    /// Applies fitted widths, the pending autofilter and print area; called by `Workbook.close()`.
    func finish() throws {
        for (column, width) in contentWidths.enumerated() where width > 0 && explicitWidths[column] == nil {
            explicitWidths[column] = Double(min(max(width + 1, 8), 80))
        }
        for column in collapsedColumns where explicitWidths[column] == nil { explicitWidths[column] = 8.43 }
        for (column, width) in explicitWidths.sorted(by: { $0.key < $1.key }) {
            var options = lxw_row_col_options(hidden: collapsedColumns.contains(column) ? 1 : 0,
                                              level: collapsedColumns.contains(column) ? 1 : 0, collapsed: 0)
            try XLSXError.check(worksheet_set_column_opt(pointer, lxw_col_t(column), lxw_col_t(column), width, nil, &options),
                                "set the width of column \(CellReference.column(column)) of sheet '\(name)'")
        }
        if let (row, columns) = pendingAutofilter {
            try autofilter(firstRow: row, firstColumn: 0, lastRow: max(row, lastRow), lastColumn: columns - 1)
        }
        try applyPrintArea()
    }

    /// Throws unless (`row`, `column`) lies inside Excel's grid, the workbook is open and, in constant-memory mode
    /// when `ordered`, `row` is not above a row already written.
    func checkPosition(_ row: Int, _ column: Int, ordered: Bool = true) throws {
        guard row >= 0, row < Self.maxRows, column >= 0, column < Self.maxColumns else {
            throw XLSXError("write row \(row) column \(column) of sheet '\(name)'", library: LXW_ERROR_WORKSHEET_INDEX_OUT_OF_RANGE)
        }
        _ = try handle.live(cellOperation(row, column))
        if ordered, constantMemory, row < lastRow {
            throw misuse(row, column, "constant-memory sheets take rows in order; row \(row + 1) comes after row \(lastRow + 1) was written")
        }
    }

    func cellOperation(_ row: Int, _ column: Int) -> String {
        "write cell \(CellReference.name(row: row, column: column)) of sheet '\(name)'"
    }

    func misuse(_ row: Int, _ column: Int, _ message: String) -> XLSXError {
        XLSXError(cellOperation(row, column), message)
    }

    func noteWidth(_ width: Int, column: Int) {
        if column >= contentWidths.count { contentWidths += repeatElement(0, count: column + 1 - contentWidths.count) }
        if width > contentWidths[column] { contentWidths[column] = width }
    }

    /// Characters of `text` (unicode scalars; the UTF-8 length is an upper bound, used when all ASCII).
    static func displayWidth(_ text: String) -> Int {
        let bytes = text.utf8.count
        return text.utf8.allSatisfy { $0 < 0x80 } ? bytes : text.unicodeScalars.count
    }

    /// Characters of `value` printed with thousands separators.
    static func groupedWidth(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        return digits + (digits - 1) / 3
    }
}

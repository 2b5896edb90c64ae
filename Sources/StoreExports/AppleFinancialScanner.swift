/// Reads an Apple Financial Report as a stream of byte chunks (`AppleTabScanner`): each data row is handed on as it is
/// read, the footer and the `ZZ` country table are read as they come, and only running sums are kept. At `finish`, in a
/// whole-file read's order: the first defect of the text or the rows, then the footer, the totals checked against the
/// sums, then every row's dates against the fiscal period the file name's `MMYY` names.
public struct AppleFinancialScanner {
    /// The file name for errors.
    public let file: String
    private var scanner: AppleTabScanner<AppleFinancialRow>
    private let footer: AppleFinancialFooter.Reader
    private let name: AppleReportFileName?
    private let period: ClosedRange<CalendarDate>?
    private var amount: Int64 = 0
    private var units: Int64 = 0
    /// The first row outside the file name's period: its line, dates and whether its start is inside.
    private var outside: (line: Int, start: CalendarDate, end: CalendarDate, startInside: Bool)?

    /// A reader of the financial report named `file` (`45545510_0914_CH.txt`, `archive.gz`).
    public init(file: String) {
        self.file = file
        let footer = AppleFinancialFooter.Reader(file: file)
        self.footer = footer
        scanner = AppleTabScanner(file: file, specs: AppleFinancialReportParser.columns, blankLines: .readAsRow,
                                  row: AppleFinancialReportParser.row,
                                  tail: (ends: AppleFinancialReportParser.isFooterOrBlank, read: footer.read))
        name = AppleReportFileName(file)
        period = name.map { AppleFiscalCalendar.dates(of: $0.period) }
    }

    /// Data rows handed on.
    public var rows: Int { scanner.rows }

    /// Where the bytes fed so far end (for a container that breaks off).
    public var position: (line: Int, column: Int) { scanner.position }

    /// Bytes held between chunks.
    var heldBytes: Int { scanner.heldBytes }

    /// Reads the lines completed by `chunk`; `emit` receives each data row.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (AppleFinancialRow) throws -> Void) throws {
        var sums = (amount, units, outside)
        defer { (amount, units, outside) = sums }
        try scanner.feed(chunk) { row in
            Self.count(row, into: &sums, period: period)
            try emit(row)
        }
    }

    /// Reads the last line and makes the whole-file checks; returns the verified totals and the country table.
    public mutating func finish(_ emit: (AppleFinancialRow) throws -> Void)
        throws -> (totals: AppleFinancialTotals, countrySummary: [AppleCountrySummaryRow]) {
        var sums = (amount, units, outside)
        defer { (amount, units, outside) = sums }
        try scanner.finish { row in
            Self.count(row, into: &sums, period: period)
            try emit(row)
        }
        let totals = try footer.totals(lastLine: scanner.lastRecordLine)
        try verify(totals, amount: sums.0, units: sums.1)
        if let name, let period, let row = sums.2 {
            let column = (scanner.headerLayout?.positions[row.startInside ? "End Date" : "Start Date"] ?? 0) + 1
            throw StoreReportError(file: file, line: row.line, column: column,
                                   reason: "row dated \(row.start)…\(row.end) is outside \(name.period) (\(period.lowerBound)…\(period.upperBound)), the period the file name's MMYY '\(name.period.fileMMYY)' names")
        }
        return (totals.totals, footer.summary)
    }

    /// Adds `row` to the running sums and notes it when it is the first outside `period`.
    private static func count(_ row: AppleFinancialRow, into sums: inout (Int64, Int64, (line: Int, start: CalendarDate, end: CalendarDate, startInside: Bool)?),
                              period: ClosedRange<CalendarDate>?) {
        sums.0 = sums.0 &+ row.extendedPartnerShareMicros
        sums.1 = sums.1 &+ max(0, row.quantity)
        if sums.2 == nil, let period, !(period.contains(row.startDate) && period.contains(row.endDate)) {
            sums.2 = (row.line, row.startDate, row.endDate, period.contains(row.startDate))
        }
    }

    /// Checks `Total_Rows`, `Total_Amount` (sum of Extended Partner Share) and `Total_Units` (sale units only).
    private func verify(_ footer: AppleFinancialFooter.Located, amount: Int64, units: Int64) throws {
        if footer.totals.rows != Int64(rows) {
            throw StoreReportError(file: file, line: footer.rowsLine, column: 2,
                                   reason: "footer Total_Rows \(footer.totals.rows) but the file has \(rows) data rows")
        }
        if footer.totals.amountMicros != amount {
            throw StoreReportError(file: file, line: footer.amountLine, column: 2,
                                   reason: "footer Total_Amount \(Micros.format(footer.totals.amountMicros)) but the rows' Extended Partner Share sums to \(Micros.format(amount))")
        }
        if footer.totals.units != units {
            throw StoreReportError(file: file, line: footer.unitsLine, column: 2,
                                   reason: "footer Total_Units \(footer.totals.units) but the rows' sale units sum to \(units)")
        }
    }
}

import CXlsxWriter

extension Worksheet {
    /// Applies `setup` to the sheet now; its print area is set when the workbook closes, spanning the rows written
    /// by then. Call at most once per sheet, before `Workbook.close()`.
    public func setPrint(_ setup: PrintSetup) throws {
        let operation = "set the print setup of sheet '\(name)'"
        _ = try handle.live(operation)
        guard (0...Int(UInt16.max)).contains(setup.pagesWide), (0...Int(UInt16.max)).contains(setup.pagesTall) else {
            throw XLSXError(operation, "pages wide and tall must be 0 through 65535")
        }
        if let columns = setup.printedColumns, !(1...Self.maxColumns).contains(columns) {
            throw XLSXError(operation, "the print area needs 1 through \(Self.maxColumns) columns, not \(columns)")
        }
        if let rows = setup.printedRows, !(1...Self.maxRows).contains(rows) {
            throw XLSXError(operation, "the print area needs 1 through \(Self.maxRows) rows, not \(rows)")
        }
        if setup.landscape { worksheet_set_landscape(pointer) } else { worksheet_set_portrait(pointer) }
        worksheet_set_paper(pointer, setup.paper)
        if setup.pagesWide > 0 || setup.pagesTall > 0 {
            worksheet_fit_to_pages(pointer, UInt16(setup.pagesWide), UInt16(setup.pagesTall))
        }
        if let rows = setup.repeatedRows {
            try checkPosition(rows.upperBound, 0, ordered: false)
            try XLSXError.check(worksheet_repeat_rows(pointer, lxw_row_t(rows.lowerBound), lxw_row_t(rows.upperBound)), operation)
        }
        if let footer = setup.footer {
            guard footer.utf8.count <= 255, !footer.utf8.contains(0) else {
                throw XLSXError(operation, "a footer is at most 255 bytes without NUL (Excel's limit)")
            }
            try XLSXError.check(worksheet_set_footer(pointer, footer), operation)
        }
        let breaks = setup.pageBreaksBefore.filter { $0 > 0 }.sorted()
        if !breaks.isEmpty {
            guard breaks.count <= 1023, breaks.allSatisfy({ $0 < Self.maxRows }) else {
                throw XLSXError(operation, "at most 1,023 page breaks, each inside the sheet")
            }
            var rows = breaks.map { lxw_row_t($0) } + [0]
            try XLSXError.check(worksheet_set_h_pagebreaks(pointer, &rows), operation)
        }
        pendingPrintArea = setup.printedColumns.map { (columns: $0, rows: setup.printedRows) }
    }

    /// Sets the pending print area over the rows written; called by `finish()`.
    func applyPrintArea() throws {
        guard let (columns, rows) = pendingPrintArea else { return }
        let last = rows.map { $0 - 1 } ?? max(0, lastRow)
        try XLSXError.check(worksheet_print_area(pointer, 0, 0, lxw_row_t(last), lxw_col_t(columns - 1)),
                            "set the print area of sheet '\(name)'")
    }
}

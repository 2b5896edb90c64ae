extension Workbook {
    /// Adds a cover sheet: `title` in bold on the first row, then one row per (key, value) from the third row,
    /// keys in bold in column A and values in column B; widths fitted. Returns the sheet for more content.
    @discardableResult
    public func addCoverSheet(name: String = "Cover", title: String, rows: [(key: String, value: Cell)]) throws -> Worksheet {
        let sheet = try addWorksheet(name)
        try sheet.writeHeader([title], row: 0, freeze: false, autofilter: false)
        for (offset, entry) in rows.enumerated() {
            try sheet.writeHeader([entry.key], row: offset + 2, freeze: false, autofilter: false)
            try sheet.write(entry.value, row: offset + 2, column: 1)
        }
        return sheet
    }
}

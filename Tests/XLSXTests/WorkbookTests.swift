import Foundation
import Testing
@testable import XLSX

/// Workbooks written through libxlsxwriter and read back from the zip: sheets, values, formats, panes, filters.
@Suite struct WorkbookTests {
    static let created: Int64 = 1_780_272_000 // 2026-06-01T00:00:00Z

    /// A small report: a cover sheet and a data sheet with a header and three rows.
    static func writeReport(to path: String, constantMemory: Bool = false, created: Int64 = created) throws {
        let workbook = try Workbook(path: path, options: WorkbookOptions(created: created, constantMemory: constantMemory, title: "MRR"))
        try workbook.addCoverSheet(title: "Finance reports", rows: [
            ("Period", .text("2026-05")), ("As of", .timestamp(epochSeconds: created)), ("Rows", .integer(3)),
        ])
        let sheet = try workbook.addWorksheet("MRR")
        try sheet.writeHeader(["month", "currency", "mrr", "share", "subscribers"])
        try sheet.writeRow([.date(CalendarDay(iso: "2026-01-31")), .text("USD"), .money(micros: 1_234_565_000, places: 2),
                            .percent(0.125, places: 1), .integer(1_234_567)], row: 1)
        try sheet.writeRow([.date(CalendarDay(iso: "2026-02-28")), .text("JPY"), .money(micros: 2_500_000, places: 0),
                            .percent(0.5, places: 1), .integer(-7)], row: 2)
        try sheet.writeRow([.date(CalendarDay(iso: "2026-03-31")), .text("KWD"), .money(micros: -1_234_565_000, places: 3),
                            .percent(1, places: 1), .empty], row: 3)
        try workbook.close()
    }

    @Test func sheetsAndCellValuesReadBackFromTheZip() throws {
        let path = try temporaryDirectory().appendingPathComponent("report.xlsx").path
        try Self.writeReport(to: path)
        let book = try WorkbookReader(path: path)
        #expect(try book.sheetNames() == ["Cover", "MRR"])
        #expect(book.parts["docProps/core.xml"]?.contains("<dc:title>MRR</dc:title>") == true)
        let cover = try book.cells(sheet: 1)
        #expect(cover["A1"]?.value == "Finance reports")
        #expect(cover["A3"]?.value == "Period" && cover["B3"]?.value == "2026-05")
        // 2026-06-01T00:00:00Z: 20605 days after 1970-01-01 (56 years of 365 days, 14 leap days, then 31+28+31+30+31
        // days of 2026 = 151), so serial 20605 + 25569 = 46174.
        #expect(cover["B4"]?.value == "46174")
        #expect(cover["B5"]?.value == "3")
        let cells = try book.cells(sheet: 2)
        #expect(["A1", "B1", "C1", "D1", "E1"].map { cells[$0]?.value } == ["month", "currency", "mrr", "share", "subscribers"])
        // 2026-01-31: 20454 days to 2026-01-01 (56 × 365 + 14) plus 30, + 25569 = 46053.
        #expect(cells["A2"]?.value == "46053")
        #expect(cells["A3"]?.value == "46081") // 28 days later
        // 1234.565 half to even at 2 places is 1234.56; 2.5 JPY at 0 places is 2; -1234.565 at 3 places stays.
        #expect(cells["C2"]?.value == "1234.56")
        #expect(cells["C3"]?.value == "2")
        #expect(cells["C4"]?.value == "-1234.565")
        #expect(cells["D2"]?.value == "0.125")
        #expect(cells["E2"]?.value == "1234567" && cells["E3"]?.value == "-7")
        #expect(cells["E4"] == nil)
        #expect(try book.sharedStrings().contains("KWD"))
        // Each kind of cell carries its own style, and the styles hold the number formats.
        let styles = book.parts["xl/styles.xml"] ?? ""
        for code in ["#,##0.00", "#,##0.000", "0.0%", "#,##0", "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"] {
            #expect(styles.contains("formatCode=\"\(code)\""), "missing number format \(code)")
        }
        // (Money at 0 places is "#,##0" like the integers, and libxlsxwriter shares identical formats.)
        #expect(Set([cells["A2"]?.style, cells["C2"]?.style, cells["C4"]?.style, cells["D2"]?.style, cells["E2"]?.style]).count == 5)
        #expect(cells["C3"]?.style == cells["E2"]?.style)
    }

    @Test func theHeaderIsFrozenFilteredAndColumnsAreFitted() throws {
        let path = try temporaryDirectory().appendingPathComponent("report.xlsx").path
        try Self.writeReport(to: path)
        let sheet = try WorkbookReader(path: path).parts["xl/worksheets/sheet2.xml"] ?? ""
        #expect(sheet.contains(#"<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>"#))
        #expect(sheet.contains(#"<autoFilter ref="A1:E4"/>"#))
        // "subscribers" is 11 characters, + 2 for bold and the filter button, + 1: width 14 (+ Excel's 0.7109375 padding).
        #expect(sheet.contains(#"<col min="5" max="5" width="14.7109375" customWidth="1"/>"#))
        // "currency" (8 + 2 + 1 = 11).
        #expect(sheet.contains(#"<col min="2" max="2" width="11.7109375" customWidth="1"/>"#))
    }

    @Test func constantMemoryWritesInlineStringsAndKeepsTheSameFeatures() throws {
        let path = try temporaryDirectory().appendingPathComponent("big.xlsx").path
        try Self.writeReport(to: path, constantMemory: true)
        let book = try WorkbookReader(path: path)
        let sheet = book.parts["xl/worksheets/sheet2.xml"] ?? ""
        #expect(sheet.contains(#"t="inlineStr""#))
        #expect(sheet.contains(#"<autoFilter ref="A1:E4"/>"#) && sheet.contains(#"state="frozen""#) && sheet.contains("<cols>"))
        let cells = try book.cells(sheet: 2)
        #expect(cells["B3"]?.value == "JPY" && cells["C2"]?.value == "1234.56")
    }

    @Test func constantMemoryRefusesAnEarlierRowInsteadOfDroppingIt() throws {
        let path = try temporaryDirectory().appendingPathComponent("order.xlsx").path
        let workbook = try Workbook(path: path, options: WorkbookOptions(created: Self.created, constantMemory: true))
        let sheet = try workbook.addWorksheet("data")
        try sheet.write(.integer(1), row: 5, column: 0)
        try sheet.write(.integer(2), row: 5, column: 1) // the same row is fine
        #expect(throws: XLSXError.self) { try sheet.write(.integer(3), row: 4, column: 0) }
        try workbook.close()
    }

    @Test func hostileStringsRoundTripInBothModes() throws {
        let hostile = [
            #"quote " and 'single' and \backslash"#, "<tag attr=\"x\">&amp; & &#65;</tag>", "ctrl \u{01}\u{07}\u{0B}\u{1F} tab\tnewline\ncr\r",
            "NUL\0inside", "_x0041_ looks escaped, _X004a_ too, _x00 not", "日本語 · émoji 🎉 · עברית", "  spaced  ", "=1+1",
        ]
        for constantMemory in [false, true] {
            let path = try temporaryDirectory().appendingPathComponent("hostile.xlsx").path
            let workbook = try Workbook(path: path, options: WorkbookOptions(created: Self.created, constantMemory: constantMemory, title: hostile[1]))
            let sheet = try workbook.addWorksheet("Ünïcode & <sheet>")
            for (row, text) in hostile.enumerated() { try sheet.write(.text(text), row: row, column: 0) }
            try workbook.close()
            let book = try WorkbookReader(path: path)
            #expect(try book.sheetNames() == ["Ünïcode & <sheet>"])
            let cells = try book.cells(sheet: 1)
            for (row, text) in hostile.enumerated() {
                #expect(cells["A\(row + 1)"]?.value == text, "constant memory \(constantMemory), row \(row)")
            }
            #expect(book.parts["docProps/core.xml"]?.contains("&lt;tag attr=\"x\"&gt;&amp;amp; &amp; &amp;#65;&lt;/tag&gt;") == true)
        }
    }

    @Test func errorsCarryTheLibrarysMessage() throws {
        let directory = try temporaryDirectory()
        let workbook = try Workbook(path: directory.appendingPathComponent("x.xlsx").path, options: WorkbookOptions(created: Self.created))
        let invalid = #expect(throws: XLSXError.self) { try workbook.addWorksheet("bad/name") }
        #expect(invalid?.code != nil && invalid?.message.contains("invalid characters") == true)
        _ = try workbook.addWorksheet("Data")
        let duplicate = #expect(throws: XLSXError.self) { try workbook.addWorksheet("data") }
        #expect(duplicate?.message.contains("already in use") == true)
        let sheet = try workbook.addWorksheet("Other")
        let outside = #expect(throws: XLSXError.self) { try sheet.write(.integer(1), row: 1_048_576, column: 0) }
        #expect(outside?.message.contains("out of range") == true)
        let huge = #expect(throws: XLSXError.self) { try sheet.write(.text(String(repeating: "a", count: 32_768)), row: 0, column: 0) }
        #expect(huge?.code != nil && huge?.operation.contains("A1") == true)
        #expect(throws: XLSXError.self) { try sheet.write(.number(.nan), row: 0, column: 0) }
        #expect(throws: XLSXError.self) { try sheet.write(.integer(1 << 54), row: 0, column: 0) }
        try workbook.close()
        let closed = #expect(throws: XLSXError.self) { try sheet.write(.integer(1), row: 0, column: 0) }
        #expect(closed?.message.contains("already closed") == true)
        #expect(throws: XLSXError.self) { try workbook.close() }

        let nowhere = try Workbook(path: directory.appendingPathComponent("missing/dir/x.xlsx").path, options: WorkbookOptions(created: Self.created))
        _ = try nowhere.addWorksheet("Data")
        let unwritable = #expect(throws: XLSXError.self) { try nowhere.close() }
        #expect(unwritable?.message.contains("Error creating output xlsx file") == true)
        #expect(throws: XLSXError.self) { try Workbook(path: "x.xlsx", options: WorkbookOptions(created: 0)) }
    }
}

import Foundation
import Testing
@testable import XLSX

/// A sheet's print setup read back from the zip: landscape A4 fitted one page wide, the repeated header row and the
/// print area over the rows written by close (in constant-memory mode too), the footer, page breaks; bad setups throw.
@Suite struct PrintSetupTests {
    @Test(arguments: [false, true]) func aReportSheetPrintsItsColumnsAndRowsWithItsHeaderOnEveryPage(constantMemory: Bool) throws {
        let path = try temporaryDirectory().appendingPathComponent("print.xlsx").path
        let workbook = try Workbook(path: path, options: WorkbookOptions(created: WorkbookTests.created, constantMemory: constantMemory))
        let sheet = try workbook.addWorksheet("MRR bridge")
        try sheet.writeHeader(["month", "mrr", "mrr_micros"])
        try sheet.setPrint(PrintSetup(repeatedRows: 0...0, printedColumns: 3, pageBreaksBefore: [40, 20]))
        for row in 1...57 { try sheet.writeRow([.text("2026-01"), .money(micros: 1_000_000, places: 2), .integer(1_000_000)], row: row) }
        let cover = try workbook.addWorksheet("Cover")
        try cover.write(.text("headline"), row: 0, column: 0)
        try cover.setPrint(PrintSetup(landscape: false, pagesWide: 1, pagesTall: 1, footer: nil, printedColumns: 2, printedRows: 10))
        try workbook.close()

        let book = try WorkbookReader(path: path)
        let xml = book.parts["xl/worksheets/sheet1.xml"] ?? ""
        #expect(xml.contains(#"<pageSetUpPr fitToPage="1"/>"#))
        #expect(xml.contains(#"<pageSetup paperSize="9" fitToHeight="0" orientation="landscape"/>"#))
        #expect(xml.contains("<oddFooter>&amp;L&amp;A&amp;RPage &amp;P of &amp;N</oddFooter>"))
        #expect(xml.contains(#"<rowBreaks count="2" manualBreakCount="2"><brk id="20" max="16383" man="1"/><brk id="40" max="16383" man="1"/></rowBreaks>"#))
        let names = book.parts["xl/workbook.xml"] ?? ""
        #expect(names.contains(#"<definedName name="_xlnm.Print_Area" localSheetId="0">'MRR bridge'!$A$1:$C$58</definedName>"#), "\(names)")
        #expect(names.contains(#"<definedName name="_xlnm.Print_Titles" localSheetId="0">'MRR bridge'!$1:$1</definedName>"#))
        #expect(names.contains(#"<definedName name="_xlnm.Print_Area" localSheetId="1">Cover!$A$1:$B$10</definedName>"#))
        let second = book.parts["xl/worksheets/sheet2.xml"] ?? ""
        #expect(second.contains(#"<pageSetup paperSize="9" orientation="portrait"/>"#), "\(second.suffix(400))")
        #expect(!second.contains("oddFooter"))
    }

    @Test func badSetupsThrowNamingTheSheet() throws {
        let path = try temporaryDirectory().appendingPathComponent("bad.xlsx").path
        let workbook = try Workbook(path: path, options: WorkbookOptions(created: WorkbookTests.created))
        let sheet = try workbook.addWorksheet("S")
        for setup in [PrintSetup(footer: String(repeating: "x", count: 256)), PrintSetup(printedColumns: 0),
                      PrintSetup(pagesWide: -1), PrintSetup(printedColumns: 1, printedRows: 0)] {
            #expect(throws: XLSXError.self) { try sheet.setPrint(setup) }
        }
    }
}

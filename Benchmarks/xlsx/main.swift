// bench-xlsx OUT.xlsx ROWS: the issue-15 sheet benchmark, ours. One sheet of ROWS rows × 12 columns (text, ISO date,
// money from Int64 micros at 2 places, integers, percent) in constant-memory mode, with a frozen, filtered header
// and fitted widths — the same cells as Benchmarks/peers/xlsx_floor.c (the C floor) and xlsx_write.py (Python
// XlsxWriter). Prints one `bench-xlsx rows=… seconds=…` line.
import Foundation
import XLSX

let arguments = CommandLine.arguments
guard arguments.count == 3, let rows = Int(arguments[2]), rows >= 0 else {
    FileHandle.standardError.write(Data("usage: bench-xlsx OUT.xlsx ROWS\n".utf8))
    exit(2)
}
let products = ["com.example.pro.monthly", "com.example.pro.yearly", "com.example.basic.monthly", "com.example.basic.weekly"]
let currencies = ["USD", "EUR", "JPY", "GBP"]
let countries = ["US", "DE", "JP", "GB", "FR", "BR"]
let headers = ["account", "date", "product", "currency", "mrr", "new", "churn", "fx", "subscribers", "bucket", "rate", "country"]

do {
    let start = Date()
    // 2024-01-01 plus 0..<730 days, made once.
    let first = try CalendarDay(year: 2024, month: 1, day: 1)
    var days: [CalendarDay] = []
    var day = first
    for _ in 0..<730 {
        days.append(day)
        let length = [31, day.year % 4 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][day.month - 1]
        day = day.day < length ? try CalendarDay(year: day.year, month: day.month, day: day.day + 1)
            : day.month < 12 ? try CalendarDay(year: day.year, month: day.month + 1, day: 1) : try CalendarDay(year: day.year + 1, month: 1, day: 1)
    }
    let workbook = try Workbook(path: arguments[1], options: WorkbookOptions(created: 1_767_225_600, constantMemory: true))
    let sheet = try workbook.addWorksheet("data")
    try sheet.writeHeader(headers)
    for r in 0..<rows {
        let row = r + 1
        try sheet.write(.text("acct-" + String(10_000_000 + r).dropFirst()), row: row, column: 0)
        try sheet.write(.date(days[r % 730]), row: row, column: 1)
        try sheet.write(.text(products[r % 4]), row: row, column: 2)
        try sheet.write(.text(currencies[r % 4]), row: row, column: 3)
        for m in 0..<4 {
            let micros = Int64((r * 7919 + m * 104_729) % 100_000_000) * 1000 - 20_000_000_000
            try sheet.write(.money(micros: micros, places: 2), row: row, column: 4 + m)
        }
        try sheet.write(.integer(Int64(r)), row: row, column: 8)
        try sheet.write(.integer(Int64(r % 1000)), row: row, column: 9)
        try sheet.write(.percent(Double(r % 1000) / 1000, places: 2), row: row, column: 10)
        try sheet.write(.text(countries[r % 6]), row: row, column: 11)
    }
    try workbook.close()
    print("bench-xlsx rows=\(rows) columns=12 seconds=\(String(format: "%.2f", Date().timeIntervalSince(start)))")
} catch {
    FileHandle.standardError.write(Data("bench-xlsx: \(error)\n".utf8))
    exit(1)
}

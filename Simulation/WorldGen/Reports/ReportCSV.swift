import Foundation

/// Comma-separated lines as Google writes them: UTF-8, LF, fields quoted when they hold a comma, quote or line break.
enum ReportCSV {
    /// One CSV line, LF-terminated.
    static func line(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\n"
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A fixed zip entry mtime for month `YYYYMM`: 00:00 UTC on the 3rd of the following month.
    static func monthMtime(_ month: String) -> Int64 {
        let year = Int64(month.prefix(4)) ?? 1970, number = Int64(month.suffix(2)) ?? 1
        let next = number == 12 ? WorldClock.days(year: year + 1, month: 1, day: 3) : WorldClock.days(year: year, month: number + 1, day: 3)
        return next * 86_400
    }
}

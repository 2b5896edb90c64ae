import Foundation
import Postgres

/// UTC calendar arithmetic and formatting on epoch milliseconds (fast, allocation-light, exact).
enum WorldClock {
    static let second: Int64 = 1_000
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Days since 1970-01-01 of a civil date (the pipeline's one civil-calendar implementation).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        CivilCalendar.days(fromYear: Int(year), month: Int(month), day: Int(day))
    }

    /// The civil date of a day number.
    static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let date = CivilCalendar.civil(fromDays: days)
        return (Int64(date.year), Int64(date.month), Int64(date.day))
    }

    /// `ms` plus `months` calendar months (day clamped to the month's length), time of day kept.
    static func addMonths(_ ms: Int64, _ months: Int64) -> Int64 {
        let dayNumber = floorDiv(ms, day)
        let timeOfDay = ms - dayNumber * day
        let date = civil(dayNumber)
        let total = date.year * 12 + (date.month - 1) + months
        let year = floorDiv(total, 12)
        let month = total - year * 12 + 1
        let lastDay = days(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1)
            - days(year: year, month: month, day: 1)
        return days(year: year, month: month, day: min(date.day, lastDay)) * day + timeOfDay
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// The instant as a `Date`.
    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1_000) }

    /// Epoch milliseconds of a `Date` (rounded to the millisecond).
    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }

    /// `2026-01-02 03:04:05.678+00` for COPY into timestamptz.
    static func sqlTimestamp(_ ms: Int64) -> String { format(ms, separator: " ", suffix: "+00") }

    /// `2026-01-02T03:04:05.678Z` (RFC 3339, Google's form).
    static func rfc3339(_ ms: Int64) -> String { format(ms, separator: "T", suffix: "Z") }

    private static func format(_ ms: Int64, separator: String, suffix: String) -> String {
        let dayNumber = floorDiv(ms, day)
        let rest = ms - dayNumber * day
        let date = civil(dayNumber)
        let h = rest / hour, m = (rest % hour) / minute, s = (rest % minute) / second, f = rest % second
        return "\(date.year)-\(pad(date.month, 2))-\(pad(date.day, 2))\(separator)\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))\(suffix)"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

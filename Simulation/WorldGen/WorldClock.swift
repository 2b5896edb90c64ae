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
    static func sqlTimestamp(_ ms: Int64) -> String { format(ms, separator: 32, suffix: [43, 48, 48]) }

    /// `2026-01-02T03:04:05.678Z` (RFC 3339, Google's form).
    static func rfc3339(_ ms: Int64) -> String { format(ms, separator: 84, suffix: [90]) }

    /// Formats into one small byte buffer (no intermediate strings); the year is not padded.
    private static func format(_ ms: Int64, separator: UInt8, suffix: [UInt8]) -> String {
        let dayNumber = floorDiv(ms, day)
        let rest = ms - dayNumber * day
        let date = civil(dayNumber)
        let h = rest / hour, m = (rest % hour) / minute, s = (rest % minute) / second, f = rest % second
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        if date.year < 0 {
            bytes.append(contentsOf: String(date.year).utf8)
        } else {
            append(date.year, width: 1, to: &bytes)
        }
        bytes.append(45)
        append(date.month, width: 2, to: &bytes)
        bytes.append(45)
        append(date.day, width: 2, to: &bytes)
        bytes.append(separator)
        append(h, width: 2, to: &bytes)
        bytes.append(58)
        append(m, width: 2, to: &bytes)
        bytes.append(58)
        append(s, width: 2, to: &bytes)
        bytes.append(46)
        append(f, width: 3, to: &bytes)
        bytes.append(contentsOf: suffix)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a non-negative `value` zero-padded to `width` digits (wider values keep all their digits).
    private static func append(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var digits = 1
        var divisor: Int64 = 1
        while value / divisor >= 10 { divisor *= 10; digits += 1 }
        while digits < width { divisor *= 10; digits += 1 }
        var remaining = value
        for _ in 0..<digits {
            bytes.append(48 + UInt8(remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }
}

/// Report-side calendars on epoch milliseconds: US Pacific local time (the stores' report day and
/// month boundary) and Apple's fiscal calendar. Exact integer arithmetic, no time-zone database.
enum ReportCalendar {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Day of week of a day number: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    static func weekday(_ dayNumber: Int64) -> Int64 { ((dayNumber + 4) % 7 + 7) % 7 }

    /// The day number of the `nth` (1-based) Sunday of a month.
    static func nthSunday(year: Int64, month: Int64, _ nth: Int64) -> Int64 {
        let first = WorldClock.days(year: year, month: month, day: 1)
        return first + (7 - weekday(first)) % 7 + (nth - 1) * 7
    }

    /// True when US Pacific daylight time is in force at `ms` (second Sunday of March 02:00 PST to
    /// first Sunday of November 02:00 PDT, the rule since 2007).
    static func isPacificDaylight(_ ms: Int64) -> Bool {
        let year = WorldClock.civil(WorldClock.floorDiv(ms, day)).year
        let start = nthSunday(year: year, month: 3, 2) * day + 10 * hour
        let end = nthSunday(year: year, month: 11, 1) * day + 9 * hour
        return ms >= start && ms < end
    }

    /// Pacific local wall-clock milliseconds for the instant `ms` (UTC).
    static func pacific(_ ms: Int64) -> Int64 { ms + (isPacificDaylight(ms) ? -7 : -8) * hour }

    /// The Pacific local day number of `ms`.
    static func pacificDay(_ ms: Int64) -> Int64 { WorldClock.floorDiv(pacific(ms), day) }

    /// The UTC instant at which Pacific local day `dayNumber` begins (midnight is never inside a DST jump).
    static func pacificMidnight(_ dayNumber: Int64) -> Int64 {
        let guess = dayNumber * day + 8 * hour
        return isPacificDaylight(guess - hour) ? guess - hour : guess
    }

    /// `YYYYMM` of the Pacific local month of `ms` (Google's monthly report key).
    static func pacificMonth(_ ms: Int64) -> String {
        let date = WorldClock.civil(pacificDay(ms))
        return String(date.year) + pad(date.month, 2)
    }

    /// The UTC instants at which the Pacific month containing `ms` starts and the next one starts.
    static func pacificMonthBounds(_ ms: Int64) -> (start: Int64, end: Int64) {
        let date = WorldClock.civil(pacificDay(ms))
        let first = WorldClock.days(year: date.year, month: date.month, day: 1)
        let next = date.month == 12 ? WorldClock.days(year: date.year + 1, month: 1, day: 1)
            : WorldClock.days(year: date.year, month: date.month + 1, day: 1)
        return (pacificMidnight(first), pacificMidnight(next))
    }

    /// `YYYY-MM-DD` of a day number.
    static func isoDate(_ dayNumber: Int64) -> String {
        let date = WorldClock.civil(dayNumber)
        return "\(date.year)-\(pad(date.month, 2))-\(pad(date.day, 2))"
    }

    /// `MM/DD/YYYY` of a day number (Apple financial reports).
    static func usDate(_ dayNumber: Int64) -> String {
        let date = WorldClock.civil(dayNumber)
        return "\(pad(date.month, 2))/\(pad(date.day, 2))/\(date.year)"
    }

    /// Zero-padded decimal.
    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// US Pacific time (America/Los_Angeles) by the US daylight-saving rules since 1987: the zone of Apple's
/// Sales and Trends day boundaries and of Google's `PST`/`PDT` stamps.
public enum PacificTime {
    /// Offset from UTC in seconds (−28800 PST or −25200 PDT) at local wall-clock `date` `secondsOfDay`.
    /// In the repeated hour of November the standard-time reading is used.
    public static func offset(date: CalendarDate, secondsOfDay: Int) -> Int {
        let (start, end) = daylightBounds(year: date.year)
        let local = date.daysSince1970 * 86_400 + secondsOfDay
        let begins = start.daysSince1970 * 86_400 + 7_200
        let ends = end.daysSince1970 * 86_400 + 3_600
        return local >= begins && local < ends ? -25_200 : -28_800
    }

    /// Epoch seconds (UTC) of a Pacific wall-clock time.
    public static func utcSeconds(date: CalendarDate, secondsOfDay: Int) -> Int64 {
        Int64(date.daysSince1970 * 86_400 + secondsOfDay - offset(date: date, secondsOfDay: secondsOfDay))
    }

    /// The Pacific calendar day of a UTC instant (Apple's Sales and Trends day).
    public static func day(ofUTCSeconds seconds: Int64) -> CalendarDate {
        let guess = CalendarDate(daysSince1970: Int((seconds - 28_800).floorDiv(86_400)))
        let local = seconds - 25_200
        let daylight = CalendarDate(daysSince1970: Int(local.floorDiv(86_400)))
        let secondsOfDay = Int(local - Int64(daylight.daysSince1970) * 86_400)
        return offset(date: daylight, secondsOfDay: secondsOfDay) == -25_200 ? daylight : guess
    }

    /// The local days daylight time starts and ends in `year`.
    static func daylightBounds(year: Int) -> (CalendarDate, CalendarDate) {
        if year >= 2007 {
            return (nthSunday(2, month: 3, year: year), nthSunday(1, month: 11, year: year))
        }
        let lastOctober = CalendarDate(year: year, month: 10, day: 31) ?? CalendarDate(daysSince1970: 0)
        return (nthSunday(1, month: 4, year: year), lastOctober.adding(days: -lastOctober.weekday))
    }

    static func nthSunday(_ n: Int, month: Int, year: Int) -> CalendarDate {
        let first = CalendarDate(year: year, month: month, day: 1) ?? CalendarDate(daysSince1970: 0)
        return first.adding(days: (7 - first.weekday) % 7 + 7 * (n - 1))
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

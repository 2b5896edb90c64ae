/// A day of the proleptic Gregorian calendar (UTC), written to a cell as an Excel serial date.
public struct CalendarDay: Equatable, Hashable, Sendable {
    /// Year, 1901 through 9999 (Excel's 1900 leap-year bug makes earlier serials ambiguous).
    public let year: Int
    /// Month, 1 through 12.
    public let month: Int
    /// Day of the month.
    public let day: Int

    /// The day `year-month-day`; throws for a date that does not exist or lies outside 1901...9999.
    public init(year: Int, month: Int, day: Int) throws {
        guard (1901...9999).contains(year), (1...12).contains(month), (1...Self.length(of: month, in: year)).contains(day) else {
            throw XLSXError("date \(year)-\(month)-\(day)", "not a calendar day between 1901-01-01 and 9999-12-31")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day of an ISO date `YYYY-MM-DD`.
    public init(iso text: String) throws {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            throw XLSXError("date \"\(text)\"", "not an ISO date YYYY-MM-DD")
        }
        try self.init(year: year, month: month, day: day)
    }

    /// Days in `month` of `year`.
    static func length(of month: Int, in year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Excel serial number of the day (1900 date system): 25569 is 1970-01-01.
    public var excelSerial: Double { Double(daysSinceEpoch + 25_569) }
}

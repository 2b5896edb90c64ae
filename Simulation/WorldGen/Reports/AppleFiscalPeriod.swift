/// One period of Apple's fiscal calendar: weeks Sunday–Saturday, the fiscal year ends on the last
/// Saturday of September, quarters 5-4-4 weeks; a 53-week year gives its extra week to December
/// (period 3; which period takes the extra week is UNCONFIRMED).
public struct AppleFiscalPeriod: Sendable, Hashable, Comparable {
    /// The fiscal year (FY2026 runs from late September 2025 to late September 2026).
    public let fiscalYear: Int
    /// 1 = October … 12 = September.
    public let period: Int
    /// First day (a Sunday) as a day number since 1970-01-01.
    public let startDay: Int64
    /// Last day (a Saturday) as a day number since 1970-01-01.
    public let endDay: Int64

    /// The finance-report API's `filter[reportDate]` value: fiscal year and period, e.g. `2026-12`.
    public var reportDate: String { "\(fiscalYear)-\(ReportCalendar.pad(Int64(period), 2))" }
    /// The `MMYY` of the financial report's file name: the calendar month the period is named after
    /// (period 1 is October of the previous calendar year), e.g. `0914` for FY2014 period 12.
    public var fileMMYY: String {
        let month = Int64((period + 8) % 12 + 1)
        let year = Int64(period <= 3 ? fiscalYear - 1 : fiscalYear)
        return ReportCalendar.pad(month, 2) + ReportCalendar.pad(year % 100, 2)
    }
    /// `Month, YYYY` of the named month (the payments summary's title), e.g. `September, 2014`.
    public var monthLabel: String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                     "November", "December"]
        return "\(names[(period + 8) % 12]), \(period <= 3 ? fiscalYear - 1 : fiscalYear)"
    }
    /// `MM/DD/YYYY` of the first day.
    public var startText: String { ReportCalendar.usDate(startDay) }
    /// `MM/DD/YYYY` of the last day.
    public var endText: String { ReportCalendar.usDate(endDay) }

    /// The last day of fiscal year `year`: the last Saturday of September.
    static func yearEnd(_ year: Int64) -> Int64 {
        let september30 = WorldClock.days(year: year, month: 9, day: 30)
        return september30 - (ReportCalendar.weekday(september30) + 1) % 7
    }

    /// The fiscal period containing day number `dayNumber`.
    public static func containing(day dayNumber: Int64) -> AppleFiscalPeriod {
        var year = WorldClock.civil(dayNumber).year
        if dayNumber > yearEnd(year) { year += 1 }
        let start = yearEnd(year - 1) + 1
        let longYear = (yearEnd(year) - start + 1) / 7 == 53
        var periodStart = start
        for index in 0..<12 {
            let weeks: Int64 = index % 3 == 0 || (longYear && index == 2) ? 5 : 4
            let end = periodStart + weeks * 7 - 1
            if dayNumber <= end || index == 11 {
                return AppleFiscalPeriod(fiscalYear: Int(year), period: index + 1, startDay: periodStart, endDay: end)
            }
            periodStart = end + 1
        }
        fatalError("unreachable")
    }

    /// The fiscal period of the calendar date `year-month-day`.
    public static func containing(year: Int, month: Int, day: Int) -> AppleFiscalPeriod {
        containing(day: WorldClock.days(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The fiscal period of the instant `ms` (by its US Pacific day; the report's zone is UNCONFIRMED).
    static func containing(ms: Int64) -> AppleFiscalPeriod { containing(day: ReportCalendar.pacificDay(ms)) }

    /// UTC instants of the period's start and of the next period's start (Pacific midnights).
    var bounds: (start: Int64, end: Int64) {
        (ReportCalendar.pacificMidnight(startDay), ReportCalendar.pacificMidnight(endDay + 1))
    }

    /// Chronological order.
    public static func < (lhs: AppleFiscalPeriod, rhs: AppleFiscalPeriod) -> Bool { lhs.startDay < rhs.startDay }
}

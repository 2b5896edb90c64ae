/// Apple's fiscal calendar: Sunday–Saturday weeks; the fiscal year ends on the last Saturday of
/// September; each quarter is 5-4-4 weeks; a 53-week year puts its extra week in period 3 (December),
/// the end of the first quarter.
public enum AppleFiscalCalendar {
    /// The last day (a Saturday) of `fiscalYear`: the last Saturday of September.
    public static func yearEnd(_ fiscalYear: Int) -> CalendarDate {
        let september30 = CalendarDate(daysSince1970: daysSince1970(year: fiscalYear, month: 9, day: 30))
        return september30.adding(days: -((september30.weekday + 1) % 7))
    }

    /// The first day (a Sunday) of `fiscalYear`.
    public static func yearStart(_ fiscalYear: Int) -> CalendarDate { yearEnd(fiscalYear - 1).adding(days: 1) }

    /// 52 or 53.
    public static func weeks(inYear fiscalYear: Int) -> Int {
        (yearEnd(fiscalYear).daysSince1970 - yearStart(fiscalYear).daysSince1970 + 1) / 7
    }

    /// 4 or 5 (6 for period 3 of a 53-week year).
    public static func weeks(in period: FiscalPeriod) -> Int {
        let base = period.period % 3 == 1 ? 5 : 4
        return period.period == 3 && weeks(inYear: period.fiscalYear) == 53 ? base + 1 : base
    }

    /// First (Sunday) and last (Saturday) day of `period`.
    public static func dates(of period: FiscalPeriod) -> ClosedRange<CalendarDate> {
        var start = yearStart(period.fiscalYear)
        var index = 1
        while index < period.period {
            start = start.adding(days: 7 * weeks(in: FiscalPeriod(fiscalYear: period.fiscalYear, period: index) ?? period))
            index += 1
        }
        return start...start.adding(days: 7 * weeks(in: period) - 1)
    }

    /// The fiscal year `date` falls in.
    public static func fiscalYear(containing date: CalendarDate) -> Int {
        date > yearEnd(date.year) ? date.year + 1 : date.year
    }

    /// The fiscal period `date` falls in, or nil outside the supported years (1900–9998).
    public static func period(containing date: CalendarDate) -> FiscalPeriod? {
        let year = fiscalYear(containing: date)
        guard var period = FiscalPeriod(fiscalYear: year, period: 1) else { return nil }
        while dates(of: period).upperBound < date { period = period.next }
        return period
    }

    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        (CalendarDate(year: year, month: month, day: day) ?? CalendarDate(daysSince1970: 0)).daysSince1970
    }
}

import Testing
@testable import WorldGen

/// Apple's fiscal calendar against the periods docs/store-exports.md lists.
@Suite struct ReportFiscalPeriodTests {
    /// (date, fiscal reportDate, start, end)
    static let known: [(Int, Int, Int, String, String, String)] = [
        // Sept 2014 = 08/31–09/27/2014
        (2014, 8, 31, "2014-12", "08/31/2014", "09/27/2014"),
        (2014, 9, 27, "2014-12", "08/31/2014", "09/27/2014"),
        (2014, 9, 28, "2015-01", "09/28/2014", "11/01/2014"),
        // Oct FY2025 = 09/29–11/02/2024
        (2024, 9, 29, "2025-01", "09/29/2024", "11/02/2024"),
        (2024, 11, 2, "2025-01", "09/29/2024", "11/02/2024"),
        (2024, 9, 28, "2024-12", "09/01/2024", "09/28/2024"),
        // Dec FY2026 = 11/30–12/27/2025
        (2025, 11, 30, "2026-03", "11/30/2025", "12/27/2025"),
        (2025, 12, 27, "2026-03", "11/30/2025", "12/27/2025"),
        (2025, 11, 29, "2026-02", "11/02/2025", "11/29/2025"),
        (2025, 12, 28, "2026-04", "12/28/2025", "01/31/2026"),
        // fiscal September 2026 is `2026-12`
        (2026, 9, 26, "2026-12", "08/30/2026", "09/26/2026"),
    ]

    @Test(arguments: 0..<known.count)
    func knownPeriods(_ index: Int) {
        let (year, month, day, reportDate, start, end) = Self.known[index]
        let period = AppleFiscalPeriod.containing(year: year, month: month, day: day)
        #expect(period.reportDate == reportDate)
        #expect(period.startText == start)
        #expect(period.endText == end)
    }

    @Test func periodsTileTheYearsInWholeWeeks() {
        var day = AppleFiscalPeriod.containing(year: 2013, month: 10, day: 1).startDay
        var previous: AppleFiscalPeriod?
        while day < WorldClock.days(year: 2031, month: 1, day: 1) {
            let period = AppleFiscalPeriod.containing(day: day)
            #expect(ReportCalendar.weekday(period.startDay) == 0)
            #expect(ReportCalendar.weekday(period.endDay) == 6)
            let weeks = (period.endDay - period.startDay + 1) / 7
            #expect(weeks == ([1, 4, 7, 10].contains(period.period) ? 5 : 4) || (period.period == 3 && weeks == 5))
            if let previous {
                #expect(previous.endDay + 1 == period.startDay)
                #expect(period.period == previous.period % 12 + 1)
            }
            previous = period
            day = period.endDay + 1
        }
    }
}

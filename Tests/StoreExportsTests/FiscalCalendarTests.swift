import Testing
@testable import StoreExports

/// Apple's fiscal calendar: year boundaries 2014–2030, known periods, and the mappings to report dates and file names.
@Suite struct FiscalCalendarTests {
    /// Fiscal year, first day, last day, weeks; the last day is the last Saturday of September
    /// (computed independently with Python's datetime).
    static let years: [(Int, String, String, Int)] = [
        (2014, "2013-09-29", "2014-09-27", 52), (2015, "2014-09-28", "2015-09-26", 52),
        (2016, "2015-09-27", "2016-09-24", 52), (2017, "2016-09-25", "2017-09-30", 53),
        (2018, "2017-10-01", "2018-09-29", 52), (2019, "2018-09-30", "2019-09-28", 52),
        (2020, "2019-09-29", "2020-09-26", 52), (2021, "2020-09-27", "2021-09-25", 52),
        (2022, "2021-09-26", "2022-09-24", 52), (2023, "2022-09-25", "2023-09-30", 53),
        (2024, "2023-10-01", "2024-09-28", 52), (2025, "2024-09-29", "2025-09-27", 52),
        (2026, "2025-09-28", "2026-09-26", 52), (2027, "2026-09-27", "2027-09-25", 52),
        (2028, "2027-09-26", "2028-09-30", 53), (2029, "2028-10-01", "2029-09-29", 52),
        (2030, "2029-09-30", "2030-09-28", 52),
    ]

    @Test(arguments: years)
    func yearBoundaries(_ row: (Int, String, String, Int)) throws {
        let (year, start, end, weeks) = row
        #expect(AppleFiscalCalendar.yearStart(year) == (try ReportFixtures.date(start)))
        #expect(AppleFiscalCalendar.yearEnd(year) == (try ReportFixtures.date(end)))
        #expect(AppleFiscalCalendar.weeks(inYear: year) == weeks)
        #expect(AppleFiscalCalendar.yearStart(year).weekday == 0)
        #expect(AppleFiscalCalendar.yearEnd(year).weekday == 6)
        // The twelve periods tile the year: contiguous, 5-4-4 weeks, Sunday to Saturday.
        var expectedStart = AppleFiscalCalendar.yearStart(year)
        for number in 1...12 {
            let period = try #require(FiscalPeriod(fiscalYear: year, period: number))
            let range = AppleFiscalCalendar.dates(of: period)
            #expect(range.lowerBound == expectedStart)
            let days = range.upperBound.daysSince1970 - range.lowerBound.daysSince1970 + 1
            let expectedWeeks = (number % 3 == 1 ? 5 : 4) + (number == 3 && weeks == 53 ? 1 : 0)
            #expect(days == 7 * expectedWeeks, "FY\(year) P\(number)")
            #expect(AppleFiscalCalendar.period(containing: range.lowerBound) == period)
            #expect(AppleFiscalCalendar.period(containing: range.upperBound) == period)
            expectedStart = range.upperBound.adding(days: 1)
        }
        #expect(expectedStart == AppleFiscalCalendar.yearStart(year + 1))
    }

    /// The periods the store-exports facts name, plus Apple's published 2021 payment calendar.
    @Test(arguments: [
        (2014, 12, "2014-08-31", "2014-09-27"), (2025, 1, "2024-09-29", "2024-11-02"), (2026, 3, "2025-11-30", "2025-12-27"),
        (2021, 3, "2020-11-29", "2020-12-26"), (2021, 4, "2020-12-27", "2021-01-30"), (2021, 7, "2021-03-28", "2021-05-01"),
        (2022, 1, "2021-09-26", "2021-10-30"),
        // 53-week FY2023: Q1 ended 2022-12-31 (Apple 10-Q); the extra week closes the quarter.
        (2023, 3, "2022-11-27", "2022-12-31"),
    ])
    func knownPeriods(_ row: (Int, Int, String, String)) throws {
        let period = try #require(FiscalPeriod(fiscalYear: row.0, period: row.1))
        #expect(AppleFiscalCalendar.dates(of: period) == (try ReportFixtures.date(row.2))...(try ReportFixtures.date(row.3)))
    }

    @Test func fileNameMapsToFiscalPeriod() throws {
        let name = try #require(AppleReportFileName("45545510_0914_CH.txt"))
        #expect(name.vendor == "45545510" && name.region == "CH")
        #expect(name.period == FiscalPeriod(fiscalYear: 2014, period: 12))
        #expect(name.fileName == "45545510_0914_CH.txt")
        #expect(AppleReportFileName("reports/85000000_1125_ZZ.txt.gz")?.period == FiscalPeriod(fiscalYear: 2026, period: 2))
        #expect(AppleReportFileName("45545510_1314_CH.txt") == nil)
        #expect(AppleReportFileName("financial_report.csv") == nil)
    }

    @Test func reportDateAndMMYYRoundTrip() throws {
        let september = try #require(FiscalPeriod(fiscalYear: 2026, period: 12))
        #expect(september.reportDate == "2026-12")
        #expect(FiscalPeriod(reportDate: "2026-12") == september)
        #expect(september.fileMMYY == "0926")
        let november = try #require(FiscalPeriod(fiscalYear: 2026, period: 2))
        #expect(november.fileMMYY == "1125")
        #expect(FiscalPeriod(fileMMYY: "1125") == november)
        #expect(FiscalPeriod(reportDate: "2026-13") == nil)
        #expect(FiscalPeriod(reportDate: "2026-1") == nil)
        var period = try #require(FiscalPeriod(fiscalYear: 2014, period: 1))
        while period.fiscalYear <= 2030 {
            #expect(FiscalPeriod(reportDate: period.reportDate) == period)
            #expect(FiscalPeriod(fileMMYY: Substring(period.fileMMYY)) == period)
            #expect(period.next.previous == period)
            period = period.next
        }
    }

    @Test func everyDayFallsInExactlyTheRightPeriod() throws {
        var day = AppleFiscalCalendar.yearStart(2014)
        while day <= AppleFiscalCalendar.yearEnd(2030) {
            let period = try #require(AppleFiscalCalendar.period(containing: day))
            #expect(AppleFiscalCalendar.dates(of: period).contains(day))
            day = day.adding(days: 13)
        }
    }
}

/// File names to report kinds and containers.
@Suite struct StoreReportKindTests {
    @Test(arguments: [
        ("45545510_0914_CH.txt", StoreReportKind.appleFinancial), ("in/85000000_1125_ZZ.txt.gz", .appleFinancial),
        ("financial_report.csv", .applePayments), ("Subscriber_85000000_20251103.txt", .appleSubscriber),
        ("S_D_85000000_20251103.txt", .appleSummarySales), ("earnings_201911_1234567890123-0.zip", .googleEarnings),
        ("salesreport_202401.zip", .googleEstimatedSales),
    ])
    func kinds(_ row: (String, StoreReportKind)) {
        #expect(StoreReportKind(fileName: row.0) == row.1)
    }

    @Test func unknownNamesAndContainers() {
        #expect(StoreReportKind(fileName: "notes.txt") == nil)
        #expect(StoreReportKind.container(of: "a.txt.gz") == .gzip)
        #expect(StoreReportKind.container(of: "earnings_201911_1-0.zip") == .zip)
        #expect(StoreReportKind.container(of: "financial_report.csv") == .plain)
    }
}

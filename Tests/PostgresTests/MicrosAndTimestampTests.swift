import Foundation
import Postgres
import Testing

/// Pure conversions used on every row: decimal text ⇄ micros and timestamps ⇄ Date.
@Suite struct MicrosAndTimestampTests {
    @Test(arguments: [
        ("4.99", Int64(4_990_000)), ("-0.5", -500_000), ("+3.", 3_000_000), ("9223372036854.775807", Int64.max),
        ("0.1234560", 123_456), ("1000", 1_000_000_000),
    ])
    func parsesExactly(text: String, micros: Int64) throws {
        #expect(try Micros.parse(text) == micros)
    }

    @Test(arguments: ["", "-", "1.2.3", "1e5", "abc", "0.0000001", "9223372036854.775808", " 1"])
    func rejects(text: String) {
        #expect(throws: Micros.ParseError.self) { try Micros.parse(text) }
    }

    @Test(arguments: [(Int64(0), "0.000000"), (1, "0.000001"), (-1_500_000, "-1.500000"), (Int64.min, "-9223372036854.775808")])
    func formats(micros: Int64, text: String) {
        #expect(Micros.decimalString(micros) == text)
    }

    @Test func civilCalendarRoundTripsEveryDayOfFourCenturies() {
        var day = CivilCalendar.days(fromYear: 1900, month: 1, day: 1)
        let end = CivilCalendar.days(fromYear: 2300, month: 12, day: 31)
        while day <= end {
            let civil = CivilCalendar.civil(fromDays: day)
            #expect(CivilCalendar.days(fromYear: civil.year, month: civil.month, day: civil.day) == day)
            day += 1
        }
        #expect(CivilCalendar.days(fromYear: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.civil(fromDays: 20_454) == (2026, 1, 1))
    }

    @Test(arguments: ["2026-13-01", "2026-01-01 25:00:00+00", "2026-01-01 00:00:00+0x", "not a date", "2026-01-01 00:00:00 UTC"])
    func rejectsMalformedTimestamps(text: String) {
        #expect(PostgresTimestamp.parse(text) == nil)
    }
}

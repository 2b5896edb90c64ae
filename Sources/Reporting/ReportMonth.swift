import Foundation
import Postgres

/// A calendar month (UTC), the unit every report period is counted in.
public struct ReportMonth: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Months since year 0 (`year * 12 + month - 1`), so that arithmetic is plain integer arithmetic.
    public let index: Int

    /// The month `year`-`month` (1...12).
    public init(year: Int, month: Int) { index = year * 12 + month - 1 }

    init(index: Int) { self.index = index }

    /// Parses `YYYY-MM`; nil for anything else.
    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.init(year: year, month: month)
    }

    /// The month holding `date` (UTC).
    public init(containing date: Date) {
        let text = Array(PostgresTimestamp.format(date).utf8)
        // `YYYY-MM-DD …`: the digits are ASCII, so the year and month are read straight from the bytes.
        let digit = { (i: Int) in Int(text[i]) - 48 }
        self.init(year: digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3), month: digit(5) * 10 + digit(6))
    }

    /// The year.
    public var year: Int { index / 12 }
    /// The month of the year, 1...12.
    public var month: Int { index % 12 + 1 }

    /// `YYYY-MM`.
    public var description: String {
        String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year) + (month < 10 ? "-0" : "-") + String(month)
    }

    /// The month `count` months later (earlier when negative).
    public func advanced(by count: Int) -> ReportMonth { ReportMonth(index: index + count) }

    /// The first instant of the month as PostgreSQL timestamptz text (`YYYY-MM-01 00:00:00+00`).
    public var startText: String { description + "-01 00:00:00+00" }

    /// The first day of the month as PostgreSQL date text (`YYYY-MM-01`).
    public var firstDayText: String { description + "-01" }

    public static func < (lhs: ReportMonth, rhs: ReportMonth) -> Bool { lhs.index < rhs.index }
}

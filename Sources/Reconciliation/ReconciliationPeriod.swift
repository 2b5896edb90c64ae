import Foundation
import StoreExports

/// A store's report period: Google's calendar month (US Pacific, the earnings file's month) or Apple's fiscal
/// period (`reportDate` YYYY-MM, 01 = October; fiscal days in US Pacific), with its UTC bounds and neighbours.
public struct ReconciliationPeriod: Sendable, Hashable, CustomStringConvertible {
    /// Which store's calendar.
    public enum Provider: String, Sendable, Hashable, CaseIterable {
        case apple, google

        /// The `billing_provider` label.
        public var databaseLabel: String { rawValue.uppercased() }
    }

    public let provider: Provider
    /// Google `YYYY-MM`; Apple fiscal `YYYY-MM` (reportDate).
    public let label: String
    /// UTC epoch seconds of the first instant in the period.
    public let start: Int64
    /// UTC epoch seconds of the first instant after the period.
    public let end: Int64

    /// Parses `label` in `provider`'s calendar; nil when it is not a period.
    public init?(_ provider: Provider, _ label: String) {
        switch provider {
        case .google:
            let parts = label.split(separator: "-")
            guard label.count == 7, parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
                  let first = CalendarDate(year: year, month: month, day: 1) else { return nil }
            let next = month == 12 ? CalendarDate(year: year + 1, month: 1, day: 1) : CalendarDate(year: year, month: month + 1, day: 1)
            guard let next else { return nil }
            self.init(provider, label, first, next)
        case .apple:
            guard let fiscal = FiscalPeriod(reportDate: label) else { return nil }
            let days = AppleFiscalCalendar.dates(of: fiscal)
            self.init(provider, fiscal.reportDate, days.lowerBound, days.upperBound.adding(days: 1))
        }
    }

    private init(_ provider: Provider, _ label: String, _ first: CalendarDate, _ after: CalendarDate) {
        self.provider = provider
        self.label = label
        start = PacificTime.utcSeconds(date: first, secondsOfDay: 0)
        end = PacificTime.utcSeconds(date: after, secondsOfDay: 0)
    }

    /// The Apple fiscal period finance means by a calendar month: the one ending in that month (the rule of the
    /// financial report's file name MMYY), e.g. 2026-11 → fiscal 2026-02.
    public static func appleFiscal(forCalendarMonth month: String) -> ReconciliationPeriod? {
        let parts = month.split(separator: "-")
        guard month.count == 7, parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]),
              let fiscal = FiscalPeriod(namedMonth: number, year: year) else { return nil }
        return ReconciliationPeriod(.apple, fiscal.reportDate)
    }

    /// The period holding the UTC instant `seconds`.
    public static func containing(_ provider: Provider, seconds: Int64) -> ReconciliationPeriod? {
        let day = PacificTime.day(ofUTCSeconds: seconds)
        switch provider {
        case .google:
            return ReconciliationPeriod(.google, String(format: "%04d-%02d", day.year, day.month))
        case .apple:
            return AppleFiscalCalendar.period(containing: day).flatMap { ReconciliationPeriod(.apple, $0.reportDate) }
        }
    }

    /// The period before this one.
    public var previous: ReconciliationPeriod? { Self.containing(provider, seconds: start - 1) }
    /// The period after this one.
    public var next: ReconciliationPeriod? { Self.containing(provider, seconds: end) }

    /// The start as a `Date`.
    public var startDate: Date { Date(timeIntervalSince1970: TimeInterval(start)) }
    /// The end as a `Date`.
    public var endDate: Date { Date(timeIntervalSince1970: TimeInterval(end)) }

    /// True when `seconds` lies in the period.
    public func contains(_ seconds: Int64) -> Bool { seconds >= start && seconds < end }

    public var description: String { "\(provider.rawValue) \(label)" }
}

import Foundation

/// A plan's billing period as an ISO 8601 duration (`plan.billing_period`: P1W, P1M, P2M, P3M, P6M, P1Y, …).
///
/// All period arithmetic goes through this type, never through `IntervalUnit` (whose enum has no week).
/// Instants move in the UTC Gregorian calendar; adding months clamps to the month's end
/// (Jan 31 + P1M = Feb 28/29), as both stores bill.
public struct BillingPeriod: Sendable, Hashable, CustomStringConvertible {
    /// The calendar unit of one step.
    public enum Unit: String, Sendable, Hashable {
        case day = "D", week = "W", month = "M", year = "Y"
    }

    public let count: Int
    public let unit: Unit

    /// Creates a period of `count` units (`count` ≥ 1).
    public init?(count: Int, unit: Unit) {
        guard count >= 1 else { return nil }
        self.count = count
        self.unit = unit
    }

    /// Parses `P{n}{D|W|M|Y}`; nil for anything else (including combined durations such as P1Y2M).
    public init?(iso text: String) {
        guard text.count >= 3, text.first == "P", let last = text.last, let unit = Unit(rawValue: String(last)),
              let count = Int(text.dropFirst().dropLast()), String(count) == String(text.dropFirst().dropLast()) else {
            return nil
        }
        self.init(count: count, unit: unit)
    }

    /// The ISO 8601 text, e.g. `P1W`.
    public var iso: String { "P\(count)\(unit.rawValue)" }
    public var description: String { iso }

    /// `date` moved forward by `periods` whole periods (backward when negative), UTC, month-end clamped.
    public func advance(_ date: Date, by periods: Int = 1) -> Date {
        let steps = count * periods
        switch unit {
        case .day: return date.addingTimeInterval(Double(steps) * 86_400)
        case .week: return date.addingTimeInterval(Double(steps) * 7 * 86_400)
        case .month: return Self.calendar.date(byAdding: .month, value: steps, to: date) ?? date
        case .year: return Self.calendar.date(byAdding: .month, value: steps * 12, to: date) ?? date
        }
    }

    /// The start of the period that ends at `end`: one period back, month-end clamped (Apr 30 − P1M = Mar 30).
    public func start(endingAt end: Date) -> Date { advance(end, by: -1) }

    /// Every instant whose period ends exactly at `end`, earliest first. Month-end clamping makes a month-based end
    /// ambiguous: Mar 30 and Mar 31 + P1M are both Apr 30, Jan 28 … Jan 31 + P1M are all Feb 28 (at most four
    /// instants, a day apart). Empty when no instant's period ends there (Feb 28 + P1M is Mar 28, never Mar 31).
    public func starts(endingAt end: Date) -> [Date] {
        let clamped = advance(end, by: -1)
        let candidates = unit == .month || unit == .year ? (0...3).map { clamped.addingTimeInterval(Double($0) * 86_400) } : [clamped]
        return candidates.filter { $0 < end && advance($0) == end }
    }

    /// The start of the period that ends at `end`, for a period bought no later than `notAfter`: the latest instant
    /// whose period ends at `end` and that is not after `notAfter`; else `start(endingAt:)`. Where clamping leaves
    /// several starts, stepping back picks the earliest, up to three days before the period was bought (a recovery of
    /// Mar 31 20:00, expiry Apr 30 20:00, read back as Mar 30 20:00: before the renewal failed, issue 28 finding 4);
    /// the instant it was bought is one of the starts, and the latest not after the answer that shows it is never
    /// before it, nor after that answer.
    public func start(endingAt end: Date, notAfter: Date) -> Date {
        starts(endingAt: end).last { $0 <= notAfter } ?? start(endingAt: end)
    }

    /// The period the legacy `IntervalUnit` names (P1M or P1Y); only for plans stored before `billing_period` existed.
    public static func legacy(_ unit: IntervalUnit) -> BillingPeriod {
        switch unit {
        case .monthly: return BillingPeriod(count: 1, unit: .month) ?? .fallbackMonth
        case .yearly: return BillingPeriod(count: 1, unit: .year) ?? .fallbackMonth
        }
    }

    private static let fallbackMonth = BillingPeriod(uncheckedCount: 1, unit: .month)

    private init(uncheckedCount: Int, unit: Unit) {
        count = uncheckedCount
        self.unit = unit
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}

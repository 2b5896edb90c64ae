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

    /// The start of the period that ends at `end`: the latest instant one period before `end`.
    ///
    /// Month-end clamping makes this ambiguous: Mar 30 and Mar 31 + P1M are both Apr 30, and Jan 28 … Jan 31 + P1M are
    /// all Feb 28. Stepping back clamps to the earliest of them (Apr 30 − P1M = Mar 30), which can be up to three days
    /// before the period really began. The latest instant whose period ends at `end` is taken instead (Mar 31), so a
    /// period read back from its end never begins before the charge that bought it: a renewal never before the period
    /// it follows ended, a recovery never before the failure it recovers (issue 28, finding 4). Its error is the other
    /// way (a period bought on Mar 30 reads as Mar 31), always inside the same calendar month. A function of `end`
    /// alone. When no instant's period ends exactly at `end` (a store that keeps the signup's day: Feb 28 → Mar 31),
    /// the clamped step back is returned.
    public func start(endingAt end: Date) -> Date {
        let clamped = advance(end, by: -1)
        guard unit == .month || unit == .year else { return clamped }
        for extraDays in stride(from: 3, through: 1, by: -1) {
            let candidate = clamped.addingTimeInterval(Double(extraDays) * 86_400)
            if candidate < end, advance(candidate) == end { return candidate }
        }
        return clamped
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

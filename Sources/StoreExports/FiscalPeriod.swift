/// One of Apple's twelve fiscal periods ("fiscal months"): period 1 is October of the previous
/// calendar year, period 12 is September.
public struct FiscalPeriod: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The fiscal year (FY2026 runs from late September 2025 to late September 2026).
    public let fiscalYear: Int
    /// 1 (October) … 12 (September).
    public let period: Int

    /// The period, or nil when `period` is outside 1...12 or the year outside 1900...9998.
    public init?(fiscalYear: Int, period: Int) {
        guard (1...12).contains(period), (1900...9998).contains(fiscalYear) else { return nil }
        self.fiscalYear = fiscalYear
        self.period = period
    }

    /// The period named after calendar `month` of `year` (October 2025 is FY2026 period 1).
    public init?(namedMonth month: Int, year: Int) {
        guard (1...12).contains(month) else { return nil }
        self.init(fiscalYear: month >= 10 ? year + 1 : year, period: month >= 10 ? month - 9 : month + 3)
    }

    /// The calendar month the period is named after: (year, month).
    public var namedMonth: (year: Int, month: Int) {
        period <= 3 ? (fiscalYear - 1, period + 9) : (fiscalYear, period - 3)
    }

    /// The finance-report API's `filter[reportDate]`: fiscal year and period, `2026-12` for fiscal September 2026.
    public var reportDate: String { "\(fiscalYear)-" + Self.two(period) }

    /// Reads a `reportDate` (`YYYY-MM`, MM = fiscal period).
    public init?(reportDate: String) {
        let parts = reportDate.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = CalendarDateFormat.digits(parts[0]), let period = CalendarDateFormat.digits(parts[1]) else { return nil }
        self.init(fiscalYear: year, period: period)
    }

    /// The `MMYY` of a financial-report file name: the calendar month the period is named after (`0914`).
    public var fileMMYY: String {
        let (year, month) = namedMonth
        return Self.two(month) + Self.two(year % 100)
    }

    /// Reads a file name's `MMYY` (years 2000–2099).
    public init?(fileMMYY: Substring) {
        guard fileMMYY.count == 4, let month = CalendarDateFormat.digits(fileMMYY.prefix(2)),
              let year = CalendarDateFormat.digits(fileMMYY.suffix(2)) else { return nil }
        self.init(namedMonth: month, year: 2000 + year)
    }

    /// The following period.
    public var next: FiscalPeriod {
        period == 12 ? FiscalPeriod(unchecked: fiscalYear + 1, 1) : FiscalPeriod(unchecked: fiscalYear, period + 1)
    }

    /// The preceding period.
    public var previous: FiscalPeriod {
        period == 1 ? FiscalPeriod(unchecked: fiscalYear - 1, 12) : FiscalPeriod(unchecked: fiscalYear, period - 1)
    }

    /// `FY2014 P12`.
    public var description: String { "FY\(fiscalYear) P" + Self.two(period) }

    /// Earlier periods first.
    public static func < (lhs: FiscalPeriod, rhs: FiscalPeriod) -> Bool {
        (lhs.fiscalYear, lhs.period) < (rhs.fiscalYear, rhs.period)
    }

    private init(unchecked year: Int, _ period: Int) {
        fiscalYear = year
        self.period = period
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

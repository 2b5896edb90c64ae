/// Period arithmetic from an ISO 8601 billing period (`P1W`, `P1M`, `P2M`, `P3M`, `P6M`, `P1Y`): the world's only source
/// of period lengths and of the monthly normalisation used for MRR (never the schema's coarser `interval_unit`).
struct BillingPeriodMath: Sendable, Hashable {
    /// Whole weeks of the period (0 for month-based periods).
    let weeks: Int64
    /// Whole calendar months of the period (a year is 12).
    let months: Int64

    /// Parses `PnW`, `PnD` (multiples of 7 only), `PnM` or `PnY`; nil for anything else.
    init?(_ iso: String) {
        guard iso.count >= 3, iso.first == "P", let unit = iso.last, let count = Int64(iso.dropFirst().dropLast()), count > 0 else {
            return nil
        }
        switch unit {
        case "W": (weeks, months) = (count, 0)
        case "D" where count % 7 == 0: (weeks, months) = (count / 7, 0)
        case "M": (weeks, months) = (0, count)
        case "Y": (weeks, months) = (0, count * 12)
        default: return nil
        }
    }

    /// The end of a period that starts at `ms` (calendar months keep the time of day and clamp the day).
    func end(from ms: Int64) -> Int64 {
        weeks > 0 ? ms + weeks * 7 * WorldClock.day : WorldClock.addMonths(ms, months)
    }

    /// The start of the period that ends at `ms`.
    func start(endingAt ms: Int64) -> Int64 {
        weeks > 0 ? ms - weeks * 7 * WorldClock.day : WorldClock.addMonths(ms, -months)
    }

    /// Twelve times the factor that normalises one period's price to a month, as an integer:
    /// P1W → 52 (×52/12), P2W → 26, P1M → 12 (×1), P2M → 6, P3M → 4, P6M → 2, P1Y → 1 (×1/12).
    /// Exact when the week count divides 52 or the month count divides 12 (0 otherwise); `MRR × 12 = price × twelfths`.
    var monthlyTwelfths: Int64 {
        if weeks > 0 { return 52 % weeks == 0 ? 52 / weeks : 0 }
        return 12 % months == 0 ? 12 / months : 0
    }
}

extension BillingPeriodMath {
    /// One calendar month (the fallback for a catalogue period that does not parse).
    static let month = BillingPeriodMath(weeks: 0, months: 1)

    private init(weeks: Int64, months: Int64) {
        self.weeks = weeks
        self.months = months
    }
}

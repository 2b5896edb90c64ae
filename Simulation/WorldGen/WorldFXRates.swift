import SeededRandom

/// Monthly exchange rates of the world's currencies to USD: deterministic from the seed, plausible 2025–2026
/// magnitudes, a gentle mean-reverting drift of at most ±1.5% a month. A rate is USD per one unit of the currency,
/// held exactly as an integer scaled by 10^10 (the `fx_rate.rate` column and `fx_rates.csv` carry the same digits).
public struct WorldFXRates: Sendable, Hashable {
    /// Rates are integers of 10^-10 USD.
    static let scale: Int64 = 10_000_000_000
    /// The quote (reporting) currency.
    static let quote = "USD"
    /// Starting rates (USD per unit, scaled by 10^10).
    static let bases: [String: Int64] = [
        "USD": 10_000_000_000, "EUR": 10_850_000_000, "GBP": 12_700_000_000, "JPY": 66_500_000, "CAD": 7_350_000_000,
        "AUD": 6_550_000_000, "BRL": 1_820_000_000, "INR": 119_000_000,
    ]

    /// The months covered, oldest first.
    let months: [WorldMonth]
    /// Scaled rate by currency, one per month of `months`.
    let rates: [String: [Int64]]

    /// The rates of `currencies` for `months` under `seed` (USD is always exactly 1).
    init(seed: UInt64, currencies: [String], months: [WorldMonth]) {
        self.months = months
        var rates: [String: [Int64]] = [:]
        for currency in Set(currencies + [Self.quote]).sorted() {
            let base = Self.bases[currency] ?? Self.scale
            guard currency != Self.quote else { rates[currency] = months.map { _ in Self.scale }; continue }
            var rng = SplitMix64(seed: seed, salt: 0x4658_5241_5445, index: UInt64(Self.stableIndex(currency)))
            var rate = base
            var series: [Int64] = []
            for _ in months {
                series.append(rate)
                // Drift in parts per million: uniform ±15 000, pulled back towards the base by 10% of the gap.
                let noise = Int64(rng.next() % 30_001) - 15_000
                let pull = (base - rate) * 100_000 / base
                rate = Self.divideHalfEven(rate * (1_000_000 + noise + pull), 1_000_000)
            }
            rates[currency] = series
        }
        self.rates = rates
    }

    /// Given rates (scaled by 10^10), one per month of `months` for each currency.
    init(months: [WorldMonth], rates: [String: [Int64]]) {
        self.months = months
        self.rates = rates
    }

    /// The scaled rate of `currency` in `month` (the nearest covered month outside the range; USD 1 when unknown).
    func rate(_ currency: String, _ month: WorldMonth) -> Int64 {
        guard let series = rates[currency], let first = months.first, !series.isEmpty else { return Self.scale }
        let position = Int(min(max(month.index - first.index, 0), Int64(series.count - 1)))
        return series[position]
    }

    /// `fx_rates.csv`: `date,currency,rate` — the month's first day, ISO 4217 code, USD per unit with ten decimals.
    func csv() -> String {
        var lines = ["date,currency,rate"]
        for (position, month) in months.enumerated() {
            for currency in rates.keys.sorted() {
                lines.append("\(month.firstDay),\(currency),\(Self.decimal(rates[currency]?[position] ?? Self.scale))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A scaled rate as a decimal with ten fractional digits.
    static func decimal(_ scaled: Int64) -> String {
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: 10 - fraction.count) + fraction
    }

    /// `numerator / denominator` rounded half to even (denominator > 0).
    static func divideHalfEven(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        Int64(ExactRounding.halfEven(Int128(numerator), Int128(denominator)))
    }

    /// A position that does not depend on which other currencies exist.
    private static func stableIndex(_ currency: String) -> Int {
        currency.utf8.reduce(0) { $0 * 31 + Int($1) }
    }
}

/// Round-half-to-even division on 128-bit integers: the one rounding rule of the expected metrics.
enum ExactRounding {
    /// `numerator / denominator` rounded to the nearest integer, ties to even (denominator > 0).
    static func halfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        var quotient = numerator / denominator
        var remainder = numerator % denominator
        if remainder < 0 { quotient -= 1; remainder += denominator }
        let twice = remainder * 2
        if twice > denominator || (twice == denominator && quotient % 2 != 0) { quotient += 1 }
        return quotient
    }
}

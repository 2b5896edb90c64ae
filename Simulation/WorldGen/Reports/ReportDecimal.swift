/// Exact decimal arithmetic and formatting on Int64 micros for report files (never through Double).
enum ReportDecimal {
    /// `value / divisor` rounded half away from zero.
    static func roundDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor, remainder = value % divisor
        guard remainder.magnitude * 2 >= divisor.magnitude else { return quotient }
        return quotient + ((value < 0) != (divisor < 0) ? -1 : 1)
    }

    /// Micros rounded to the cent.
    static func cents(_ micros: Int64) -> Int64 { roundDiv(micros, 10_000) * 10_000 }

    /// `micros × numerator / denominator`, rounded to the cent.
    static func share(_ micros: Int64, _ numerator: Int64, _ denominator: Int64) -> Int64 {
        cents(roundDiv(micros * numerator, denominator))
    }

    /// Formats micros with `places` decimals (2 or 6); the micros must already be rounded to that precision.
    static func format(_ micros: Int64, places: Int = 2) -> String {
        precondition(places >= 0 && places <= 6)
        var scale: Int64 = 1
        for _ in 0..<(6 - places) { scale *= 10 }
        precondition(micros % scale == 0, "\(micros) is not a multiple of \(scale)")
        let magnitude = micros.magnitude
        let whole = magnitude / 1_000_000
        let sign = micros < 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let fraction = String((magnitude % 1_000_000) / UInt64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

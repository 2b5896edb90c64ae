import Foundation

/// A chart's value axis: the data's range widened to round steps (1, 2 or 5 times a power of ten, about five of
/// them), and the labels of its ticks.
struct ValueAxis {
    /// The axis' lowest and highest value (multiples of `step`).
    let low: Double, high: Double
    /// The distance between ticks.
    let step: Double

    /// The axis for data between `low` and `high` (an empty range becomes 0…1).
    init(low dataLow: Double, high dataHigh: Double) {
        var (lowValue, highValue) = (min(dataLow, dataHigh), max(dataLow, dataHigh))
        if highValue - lowValue <= 0 { highValue = lowValue + 1 }
        let step = Self.roundStep((highValue - lowValue) / 5)
        lowValue = (lowValue / step).rounded(.down) * step
        highValue = (highValue / step).rounded(.up) * step
        if highValue == lowValue { highValue += step }
        self.low = lowValue
        self.high = highValue
        self.step = step
    }

    /// The round step at or above `rough`: 1, 2 or 5 × 10^k.
    static func roundStep(_ rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let power = pow(10, (log10(rough)).rounded(.down))
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * power >= rough * (1 - 1e-9) { return factor * power }
        return 10 * power
    }

    /// The tick values from `low` to `high`.
    var ticks: [Double] {
        let count = Int(((high - low) / step).rounded())
        return (0...count).map { index in
            let value = low + Double(index) * step
            return abs(value) < step * 1e-9 ? 0 : value
        }
    }

    /// A tick or value label: a percentage with one decimal, or the number with thousands separators and as many
    /// decimals as the step needs (at most two).
    func label(_ value: Double, percent: Bool) -> String {
        if percent { return String(format: "%.1f%%", value * 100) }
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2
        return Self.grouped(value, decimals: decimals)
    }

    /// `value` with `decimals` decimals and a comma between thousands (no locale: the report reads the same everywhere).
    static func grouped(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", abs(value))
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = Array(parts[0])
        var index = whole.count - 3
        while index > 0 { whole.insert(",", at: index); index -= 3 }
        let sign = value < 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
        return sign + String(whole) + (parts.count > 1 ? "." + parts[1] : "")
    }
}

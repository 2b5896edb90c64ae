import BillingCore

/// Exact decimal text to Int64 micros (millionths of a currency unit). Never goes through Double.
public enum Micros {
    /// How a number is written: the decimal mark and whether `,` groups thousands.
    public struct Style: Sendable, Equatable {
        /// Allow `,` between groups of three integer digits (`1,234.56`).
        public var thousandsSeparators: Bool
        /// Plain `-12.345`: optional sign, digits, optional `.` and any number of decimals.
        public static let plain = Style(thousandsSeparators: false)
        /// As `plain`, plus `,` thousands separators.
        public static let grouped = Style(thousandsSeparators: true)
    }

    /// Parses `text` to micros, or returns a reason why it is not an exact amount.
    /// Digits after the sixth decimal must be zeros (an amount is never rounded silently).
    public static func parse(_ text: Substring, style: Style = .plain) -> Result<Int64, AmountProblem> {
        switch ExactDecimal.parse(text, style: style) {
        case .failure(let problem): return .failure(problem)
        case .success(let decimal): return decimal.micros()
        }
    }

    /// The same amount written with six decimals (`-1.500000`), for messages and exports.
    public static func format(_ micros: Int64) -> String {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// Why a cell is not an exact number.
public enum AmountProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a number at all.
    case notANumber(String)
    /// More than 18 significant digits.
    case tooLarge(String)
    /// Non-zero digits beyond the sixth decimal: not representable in micros.
    case finerThanMicros(String)

    /// A human message naming the text.
    public var description: String {
        switch self {
        case .notANumber(let text): return "'\(Redaction.excerpt(text))' is not a number"
        case .tooLarge(let text): return "'\(Redaction.excerpt(text))' is too large for Int64 micros"
        case .finerThanMicros(let text): return "'\(Redaction.excerpt(text))' has non-zero digits beyond micros (6 decimals)"
        }
    }
}

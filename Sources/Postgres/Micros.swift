/// Exact conversion between decimal text (as `numeric` arrives) and Int64 micros. Never through Double.
public enum Micros {
    /// Why a decimal string is not an exact micros amount.
    public enum ParseError: Error, CustomStringConvertible, Sendable {
        case notADecimal(String)
        case tooPrecise(String)
        case overflow(String)

        public var description: String {
            switch self {
            case .notADecimal(let text): return "'\(text)' is not a decimal number"
            case .tooPrecise(let text): return "'\(text)' has non-zero digits beyond 6 decimal places"
            case .overflow(let text): return "'\(text)' does not fit in Int64 micros"
            }
        }
    }

    /// Parses `-12.345678`, `12`, `0.5`, `+3.`; digits past the sixth decimal must be zero.
    public static func parse(_ text: String) throws -> Int64 {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var sawDigit = false
        var inFraction = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !inFraction else { throw ParseError.notADecimal(text) }
                inFraction = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw ParseError.notADecimal(text) }
            let digit = Int64(byte - UInt8(ascii: "0"))
            sawDigit = true
            if inFraction {
                if fractionDigits < 6 {
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                } else if digit != 0 {
                    throw ParseError.tooPrecise(text)
                }
            } else {
                let (times, o1) = whole.multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(digit)
                guard !o1, !o2 else { throw ParseError.overflow(text) }
                whole = plus
            }
        }
        guard sawDigit else { throw ParseError.notADecimal(text) }
        while fractionDigits < 6 { fraction *= 10; fractionDigits += 1 }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: 1_000_000)
        let (total, o2) = scaled.addingReportingOverflow(fraction)
        guard !o1, !o2 else { throw ParseError.overflow(text) }
        return negative ? -total : total
    }

    /// Formats micros as a decimal with exactly six places, e.g. 1500000 → "1.500000".
    public static func decimalString(_ micros: Int64) -> String {
        let negative = micros < 0
        let magnitude = micros.magnitude
        let whole = magnitude / 1_000_000
        let fraction = String(magnitude % 1_000_000)
        return (negative ? "-" : "") + String(whole) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

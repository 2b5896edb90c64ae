/// A decimal number kept exactly as written: an unscaled integer and a count of decimals
/// (`0.14937` is 14937 × 10⁻⁵). Used for exchange rates, which can carry more than six decimals.
public struct ExactDecimal: Sendable, Hashable, CustomStringConvertible {
    /// The digits as an integer, with the sign.
    public let unscaled: Int64
    /// How many of those digits are decimals.
    public let scale: Int

    /// `unscaled` × 10^-`scale`.
    public init(unscaled: Int64, scale: Int) {
        self.unscaled = unscaled
        self.scale = scale
    }

    /// Parses optional sign, digits (with `,` groups of three when the style allows) and decimals. The integer
    /// digits may be left out before a decimal point (`.70`, `-.5`), as Apple's own samples and older files write.
    public static func parse(_ text: Substring, style: Micros.Style = .plain) -> Result<ExactDecimal, AmountProblem> {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        var integer = bytes[..<(point ?? bytes.endIndex)]
        let fraction = point.map { bytes[($0 + 1)...] } ?? []
        if style.thousandsSeparators, integer.contains(UInt8(ascii: ",")) {
            let groups = integer.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard let head = groups.first, (1...3).contains(head.count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                return .failure(.notANumber(String(text)))
            }
            integer = ArraySlice(groups.joined())
        }
        guard !integer.isEmpty || !fraction.isEmpty, point == nil || !fraction.isEmpty else { return .failure(.notANumber(String(text))) }
        var value: Int64 = 0
        for byte in integer + fraction {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .failure(.notANumber(String(text))) }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return .failure(.tooLarge(String(text))) }
            value = sum
        }
        return .success(ExactDecimal(unscaled: negative ? -value : value, scale: fraction.count))
    }

    /// The value in micros; fails when digits beyond the sixth decimal are not zero.
    public func micros() -> Result<Int64, AmountProblem> {
        var value = unscaled
        var scale = self.scale
        while scale > 6 {
            guard value % 10 == 0 else { return .failure(.finerThanMicros(description)) }
            value /= 10
            scale -= 1
        }
        while scale < 6 {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .failure(.tooLarge(description)) }
            value = times
            scale += 1
        }
        return .success(value)
    }

    /// The value as an integer when every decimal is zero (`12.00` → 12), else nil.
    public var wholeValue: Int64? {
        var value = unscaled
        for _ in 0..<scale {
            guard value % 10 == 0 else { return nil }
            value /= 10
        }
        return value
    }

    /// The number as written, normalised (`-0.14937`).
    public var description: String {
        guard scale > 0 else { return String(unscaled) }
        let sign = unscaled < 0 ? "-" : ""
        var digits = String(unscaled.magnitude)
        if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
        let cut = digits.index(digits.endIndex, offsetBy: -scale)
        return sign + digits[..<cut] + "." + digits[cut...]
    }
}

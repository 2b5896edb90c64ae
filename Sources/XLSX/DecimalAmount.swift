/// An amount held as Int64 micros, rounded once (half to even) to a number of decimal places for output.
///
/// The rounding is exact integer arithmetic. `exactDecimal` is the text a CSV carries; `cellValue` is what an XLSX
/// numeric cell can hold: an IEEE-754 double by the file format's definition, the nearest double to the exact decimal
/// (one correctly rounded division of two exactly representable integers), which Excel shows exactly with the
/// cell's number format for any amount below 2^53 units of the last place.
public struct DecimalAmount: Equatable, Sendable {
    /// The amount in units of the last decimal place (cents for 2 places), already rounded.
    public let units: Int64
    /// Decimal places kept, 0 through 6.
    public let places: Int

    /// Powers of ten 10^0 ... 10^6.
    static let powers: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `micros` (millionths) rounded half to even to `places` decimal places (0...6).
    public init(micros: Int64, places: Int) throws {
        guard (0...6).contains(places) else {
            throw XLSXError("round \(micros) micros", "decimal places must be 0 through 6, not \(places)")
        }
        let divisor = Self.powers[6 - places]
        var quotient = micros / divisor
        let remainder = micros % divisor // same sign as micros
        let twice = remainder.magnitude * 2
        if twice > divisor.magnitude || (twice == divisor.magnitude && quotient % 2 != 0) {
            quotient += micros < 0 ? -1 : 1
        }
        self.units = quotient
        self.places = places
    }

    /// Micros per unit of the last place kept: 10^(6 − `places`) (1 for 6 places, 10,000 for cents).
    public static func scale(_ places: Int) -> Int64 { powers[6 - min(max(places, 0), 6)] }

    /// The exact decimal text: optional minus, digits, and `places` digits after a point (no grouping, no locale).
    /// Written right to left into the string's own bytes (every amount cell of a report goes through it).
    public var exactDecimal: String {
        let magnitude = units.magnitude
        var count = 1
        var rest = magnitude
        while rest >= 10 { rest /= 10; count += 1 }
        // At least one digit before the point: 0.05, not .05.
        let digits = Swift.max(count, places + 1)
        let length = (units < 0 ? 1 : 0) + digits + (places > 0 ? 1 : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = length
            var value = magnitude
            for position in 0..<digits {
                if places > 0 && position == places {
                    index -= 1
                    buffer[index] = UInt8(ascii: ".")
                }
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
            if units < 0 { buffer[0] = UInt8(ascii: "-") }
            return length
        }
    }

    /// The value of a numeric cell: the double nearest to the exact decimal; throws beyond 2^53 units, where
    /// the units themselves are no longer exact in a double.
    public func cellValue() throws -> Double {
        guard units.magnitude <= 1 << 53 else {
            throw XLSXError("amount \(exactDecimal)", "too large for an exact spreadsheet number (more than 2^53 units)")
        }
        return Double(units) / Double(Self.powers[places])
    }
}

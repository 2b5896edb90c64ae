import Foundation

/// An Apple date: milliseconds since 1970 as a JSON number, possibly with a fraction.
public struct AppleTimestamp: Sendable, Hashable, Comparable, Decodable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z as sent (a fraction is kept).
    public let milliseconds: Double

    /// Creates a timestamp from milliseconds since the epoch.
    public init(milliseconds: Double) { self.milliseconds = milliseconds }

    /// Creates a timestamp from a `Date`.
    public init(date: Date) { self.milliseconds = date.timeIntervalSince1970 * 1_000 }

    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: milliseconds / 1_000) }

    /// Decodes a JSON number (integer or fractional) or a numeric string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int64.self) {
            milliseconds = Double(whole)
        } else if let fractional = try? container.decode(Double.self), fractional.isFinite {
            milliseconds = fractional
        } else if let text = try? container.decode(String.self), let value = Double(text), value.isFinite {
            milliseconds = value
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Apple date is not milliseconds since 1970")
        }
    }

    /// Orders by instant.
    public static func < (lhs: AppleTimestamp, rhs: AppleTimestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The milliseconds as text.
    public var description: String { String(milliseconds) }
}

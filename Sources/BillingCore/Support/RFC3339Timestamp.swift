import Foundation

/// A Google `google-datetime`: RFC 3339 text with 0–9 fractional digits, parsed strictly and exactly.
public struct RFC3339Timestamp: Sendable, Hashable, Comparable, Decodable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64
    /// Nanoseconds within the second, 0...999_999_999.
    public let nanos: Int32
    /// The text exactly as received.
    public let rawValue: String

    /// Parses RFC 3339 text such as `2025-03-01T10:00:00.123456789Z` or `2025-03-01T19:00:00+09:00`.
    public init(_ text: String) throws(TimestampError) {
        let parsed = try RFC3339Parser.parse(text)
        seconds = parsed.seconds
        nanos = parsed.nanos
        rawValue = text
    }

    /// Creates a timestamp from an instant (nanosecond precision is rounded to microseconds).
    public init(date: Date) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let total = Int64(micros)
        let secs = total >= 0 ? total / 1_000_000 : (total - 999_999) / 1_000_000
        seconds = secs
        nanos = Int32((total - secs * 1_000_000) * 1_000)
        rawValue = RFC3339Parser.format(seconds: secs, nanos: nanos)
    }

    /// Decodes from a JSON string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// The instant as a `Date` (sub-microsecond digits are approximated by `Date`).
    public var date: Date { Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1_000_000_000) }

    /// The instant in UTC as `yyyy-MM-ddTHH:mm:ss[.fraction]Z`, trailing zeros trimmed; stable across formats.
    public var canonical: String { RFC3339Parser.format(seconds: seconds, nanos: nanos) }

    /// Equal when the instants are equal, whatever the original text.
    public static func == (lhs: RFC3339Timestamp, rhs: RFC3339Timestamp) -> Bool {
        lhs.seconds == rhs.seconds && lhs.nanos == rhs.nanos
    }

    /// Hashes the instant.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
        hasher.combine(nanos)
    }

    /// Orders by instant.
    public static func < (lhs: RFC3339Timestamp, rhs: RFC3339Timestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }

    /// The canonical text.
    public var description: String { canonical }
}

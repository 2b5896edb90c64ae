import Foundation

/// One statement parameter as sent to the server: NULL, text bytes, or binary bytes (bytea).
public enum PostgresParameter: Sendable, Equatable {
    case null
    /// Text format. The bytes are sent as they are, so invalid UTF-8 reaches the server and is rejected there.
    case text([UInt8])
    /// Binary format; used for bytea.
    case binary([UInt8])

    /// A text parameter from a Swift string.
    public static func string(_ value: String) -> PostgresParameter { .text(Array(value.utf8)) }
}

/// A Swift value that can be bound as a `$n` parameter. Parameters are never spliced into SQL.
public protocol PostgresEncodable: Sendable {
    /// The wire form of the value.
    var postgresParameter: PostgresParameter { get }
}

extension String: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(self) }
}
extension Substring: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(String(self)) }
}
extension Int: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(String(self)) }
}
extension Int64: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(String(self)) }
}
extension Int32: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(String(self)) }
}
extension Bool: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(self ? "t" : "f") }
}
extension Double: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(self.description) }
}
extension UUID: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(uuidString.lowercased()) }
}
extension Date: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .string(PostgresTimestamp.format(self)) }
}
extension Data: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .binary(Array(self)) }
}
extension Array: PostgresEncodable where Element == UInt8 {
    public var postgresParameter: PostgresParameter { .binary(self) }
}
extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresParameter: PostgresParameter {
        switch self {
        case .none: return .null
        case .some(let value): return value.postgresParameter
        }
    }
}
extension PostgresParameter: PostgresEncodable {
    public var postgresParameter: PostgresParameter { self }
}

/// A JSON document bound as text, for `json`/`jsonb` columns.
public struct PostgresJSON: PostgresEncodable {
    public let text: String

    /// Wraps already-serialised JSON text (validated by the server on insert).
    public init(text: String) { self.text = text }

    /// Serialises an Encodable value with sorted keys, so equal values give equal text.
    public init<T: Encodable>(encoding value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public var postgresParameter: PostgresParameter { .string(text) }
}

/// An amount in integer micros bound as an exact `numeric` (e.g. 1.5 units → "1.500000").
public struct PostgresMicrosNumeric: PostgresEncodable {
    public let micros: Int64

    /// Wraps a micros amount.
    public init(_ micros: Int64) { self.micros = micros }

    public var postgresParameter: PostgresParameter { .string(Micros.decimalString(micros)) }
}

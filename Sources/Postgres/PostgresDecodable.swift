import Foundation

/// A Swift type that can be read from a column's text representation.
public protocol PostgresDecodable {
    /// Parses the server's text form (TimeZone=UTC, DateStyle=ISO, bytea hex).
    init(postgresText text: String) throws
}

/// Why a column's text could not become the requested Swift type.
public struct PostgresDecodingError: Error, CustomStringConvertible, Sendable {
    public let text: String
    public let type: String
    public var description: String { "cannot read '\(text.prefix(80))' as \(type)" }
}

extension String: PostgresDecodable {
    public init(postgresText text: String) throws { self = text }
}

extension Int: PostgresDecodable {
    public init(postgresText text: String) throws {
        guard let value = Int(text) else { throw PostgresDecodingError(text: text, type: "Int") }
        self = value
    }
}

extension Int64: PostgresDecodable {
    public init(postgresText text: String) throws {
        guard let value = Int64(text) else { throw PostgresDecodingError(text: text, type: "Int64") }
        self = value
    }
}

extension Int32: PostgresDecodable {
    public init(postgresText text: String) throws {
        guard let value = Int32(text) else { throw PostgresDecodingError(text: text, type: "Int32") }
        self = value
    }
}

extension Double: PostgresDecodable {
    public init(postgresText text: String) throws {
        guard let value = Double(text) else { throw PostgresDecodingError(text: text, type: "Double") }
        self = value
    }
}

extension Bool: PostgresDecodable {
    public init(postgresText text: String) throws {
        switch text {
        case "t": self = true
        case "f": self = false
        default: throw PostgresDecodingError(text: text, type: "Bool")
        }
    }
}

extension UUID: PostgresDecodable {
    public init(postgresText text: String) throws {
        guard let value = UUID(uuidString: text) else { throw PostgresDecodingError(text: text, type: "UUID") }
        self = value
    }
}

extension Date: PostgresDecodable {
    public init(postgresText text: String) throws {
        guard let value = PostgresTimestamp.parse(text) else { throw PostgresDecodingError(text: text, type: "Date") }
        self = value
    }
}

extension Data: PostgresDecodable {
    /// Reads bytea in hex output format (`\x0a1b…`).
    public init(postgresText text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0 else {
            throw PostgresDecodingError(text: text, type: "bytea")
        }
        var data = Data(capacity: (bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else {
                throw PostgresDecodingError(text: text, type: "bytea")
            }
            data.append(high << 4 | low)
            index += 2
        }
        self = data
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// An exact `numeric` read as Int64 micros; more than six non-zero decimals is an error, never rounded.
public struct NumericMicros: PostgresDecodable, Sendable, Equatable {
    public let micros: Int64
    public init(postgresText text: String) throws { micros = try Micros.parse(text) }
}

/// A `json`/`jsonb` column as its text; decode it further with JSONDecoder.
public struct PostgresJSONText: PostgresDecodable, Sendable, Equatable {
    public let text: String
    public init(postgresText text: String) throws { self.text = text }

    /// Decodes the JSON into a Decodable type.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

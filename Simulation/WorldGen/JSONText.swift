import Crypto
import StoreTruth

/// Compact JSON text with sorted keys, for payload columns (jsonb) and provenance payloads.
enum JSONText {
    /// Serialises `value` compactly with object keys sorted.
    static func serialize(_ value: JSONValue) -> String {
        String(decoding: JSONBytes.encode(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of `serialize(value)`.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        JSONBytes.encode(value)
    }
}

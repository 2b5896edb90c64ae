import Crypto
import JobKit

/// Compact JSON text with sorted keys, for payload columns (jsonb) and provenance payloads.
enum JSONText {
    /// Serialises `value` compactly with object keys sorted.
    static func serialize(_ value: JSONValue) -> String {
        var out = ""
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .number(let number): out += String(number)
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            out += "["
            for (position, item) in items.enumerated() {
                if position > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                if let member = members[key] { write(member, into: &out) }
            }
            out += "}"
        }
    }

    static func writeString(_ text: String, into out: inout String) {
        JSONLine.appendQuoted(text, to: &out)
    }
}

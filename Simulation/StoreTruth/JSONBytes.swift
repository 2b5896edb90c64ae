import Crypto

/// Compact UTF-8 JSON with object keys sorted, written straight into a byte buffer (no `String` building).
///
/// Strings escape `"`, `\`, `\n`, `\r`, `\t` and other control characters (`\u00XX`); everything else,
/// including non-ASCII, is copied as UTF-8, the same rules as JobKit's `JSONLine.appendQuoted`.
public enum JSONBytes {
    /// The serialisation of `value`.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(value, to: &out)
        return out
    }

    /// Appends the serialisation of `value` to `out`.
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: [110, 117, 108, 108])
        case .bool(let flag): out.append(contentsOf: flag ? [116, 114, 117, 101] : [102, 97, 108, 115, 101])
        case .integer(let number): appendInteger(number, to: &out)
        case .number(let number): out.append(contentsOf: String(number).utf8)
        case .string(let text): appendString(text, to: &out)
        case .array(let items):
            out.append(91)
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(44) }
                append(item, to: &out)
            }
            out.append(93)
        case .object(let members):
            out.append(123)
            for (position, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { out.append(44) }
                appendString(member.key, to: &out)
                out.append(58)
                append(member.value, to: &out)
            }
            out.append(125)
        }
    }

    /// Appends an object whose members are given already in key order (nil members are omitted).
    public static func appendObject(_ members: [(String, JSONValue?)], to out: inout [UInt8]) {
        out.append(123)
        var first = true
        for (key, value) in members {
            guard let value else { continue }
            if !first { out.append(44) }
            first = false
            appendString(key, to: &out)
            out.append(58)
            append(value, to: &out)
        }
        out.append(125)
    }

    /// Appends `number` in decimal.
    public static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        if number >= 0 && number < 10 { out.append(48 + UInt8(number)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var magnitude = number.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - count] = 48 + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if number < 0 { out.append(45) }
            out.append(contentsOf: raw[(20 - count)...])
        }
    }

    /// Appends `text` as a quoted JSON string.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(34)
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 34 || byte == 92 else { continue }
                if start < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                start = index + 1
                switch byte {
                case 34: out.append(contentsOf: [92, 34])
                case 92: out.append(contentsOf: [92, 92])
                case 10: out.append(contentsOf: [92, 110])
                case 13: out.append(contentsOf: [92, 114])
                case 9: out.append(contentsOf: [92, 116])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
            }
            if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        out.append(34)
    }
}

import Foundation

/// Base64 in the URL-safe unpadded form of JOSE (RFC 7515) and the standard padded form of `x5c`.
public enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xFF

    private static let standardTable = table(for: standardAlphabet)
    private static let urlTable = table(for: urlAlphabet)

    private static func table(for alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }

    /// Encodes bytes as unpadded base64url (the JWS/JWT form).
    public static func urlEncoded(_ bytes: some Collection<UInt8>) -> String {
        encode(Array(bytes), alphabet: urlAlphabet, pad: false)
    }

    /// Encodes bytes as standard padded base64 (the `x5c` form).
    public static func standardEncoded(_ bytes: some Collection<UInt8>) -> String {
        encode(Array(bytes), alphabet: standardAlphabet, pad: true)
    }

    /// Decodes unpadded base64url; nil on any character outside the URL-safe alphabet, padding or a bad length.
    public static func decodeURL(_ text: some StringProtocol) -> Data? {
        var text = String(text)
        return text.withUTF8 { decode($0, url: true) }
    }

    /// Decodes standard base64, padded or not; nil on any other character or a bad length.
    public static func decodeStandard(_ text: some StringProtocol) -> Data? {
        var text = String(text)
        return text.withUTF8 { decode($0, url: false) }
    }

    static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(word >> 18 & 63)])
            out.append(alphabet[Int(word >> 12 & 63)])
            out.append(alphabet[Int(word >> 6 & 63)])
            out.append(alphabet[Int(word & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let word = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[Int(word >> 18 & 63)])
            out.append(alphabet[Int(word >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(word >> 6 & 63)]) }
            if pad { out.append(contentsOf: Array("==".utf8.prefix(3 - rest))) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `input`; `url` selects the alphabet. URL form rejects padding, standard form accepts it.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, url: Bool) -> Data? {
        var count = input.count
        if !url {
            if count % 4 == 0, count > 0, input[count - 1] == UInt8(ascii: "=") {
                count -= 1
                if input[count - 1] == UInt8(ascii: "=") { count -= 1 }
            }
        }
        if count % 4 == 1 { return nil }
        let table = url ? urlTable : standardTable
        let outputCount = count / 4 * 3 + max(0, count % 4 - 1)
        var output = Data(count: outputCount)
        let ok = output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
            table.withUnsafeBufferPointer { table in
                var written = 0
                var index = 0
                while index < count {
                    let chunk = min(4, count - index)
                    var word: UInt32 = 0
                    for offset in 0..<4 {
                        var value: UInt8 = 0
                        if offset < chunk {
                            value = table[Int(input[index + offset])]
                            if value == invalid { return false }
                        }
                        word = word << 6 | UInt32(value)
                    }
                    for offset in 0..<(chunk - 1) {
                        out[written] = UInt8(truncatingIfNeeded: word >> (16 - 8 * UInt32(offset)))
                        written += 1
                    }
                    index += 4
                }
                return true
            }
        }
        return ok ? output : nil
    }
}

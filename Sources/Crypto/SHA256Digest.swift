import COpenSSL

/// SHA-256 of a byte buffer (OpenSSL), for content hashes of imported files.
public enum SHA256Digest {
    /// The 32-byte digest of `bytes` as 64 lower-case hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return lowerHex(digest)
    }

    /// `digest` (any bytes) as lower-case hex digits, two per byte (shared with `SHA256Hasher` and the kept files' keys).
    public static func lowerHex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

import Crypto
import Foundation

/// Opaque continuation tokens (revision, paginationToken, pageToken): an offset bound to the query that made it.
enum PageToken {
    /// A token for continuing `scope` (a canonical description of the query) at `offset`.
    static func make(_ kind: String, scope: String, offset: Int) -> String {
        Base64.urlEncoded(Array("\(kind):\(offset):\(fingerprint(scope))".utf8))
    }

    /// The offset a token carries, or nil when it is malformed or was made for another kind or query.
    static func offset(_ token: String, kind: String, scope: String) -> Int? {
        guard let data = Base64.decodeURL(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == kind, parts[2] == fingerprint(scope), let offset = Int(parts[1]), offset >= 0 else {
            return nil
        }
        return offset
    }

    /// FNV-1a 64 of `text`, hex.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}

import Crypto
import Testing

/// The incremental SHA-256 that hashes a CSV as it is written in pieces.
@Suite struct SHA256HasherTests {
    /// FIPS 180-2's "abc" vector, fed in two pieces.
    @Test func piecesHashLikeTheWhole() {
        let hasher = SHA256Hasher()
        hasher.update(Array("a".utf8))
        hasher.update(Array("bc".utf8))
        #expect(hasher.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// A million bytes in uneven pieces hash as the one buffer does, and no bytes hash as the empty string.
    @Test func unevenPiecesAndNothing() {
        let bytes = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let hasher = SHA256Hasher()
        var start = 0
        var size = 1
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            hasher.update(Array(bytes[start..<end]))
            start = end
            size = size * 3 + 1
        }
        #expect(hasher.hex() == SHA256Digest.hex(bytes))
        #expect(SHA256Hasher().hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

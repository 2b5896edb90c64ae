import COpenSSL

/// An incremental SHA-256 (OpenSSL EVP): feed the bytes in pieces, then read the digest once, e.g. for a file written
/// in chunks whose whole text is never held in memory.
public final class SHA256Hasher {
    private let context: OpaquePointer?

    /// A hasher over no bytes yet.
    public init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the hashed text.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { input in _ = EVP_DigestUpdate(context, input.baseAddress, input.count) }
    }

    /// Adds `bytes` (lent for the call) to the hashed text.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The 32-byte digest of everything added (call once; the hasher is spent after it).
    public func digest() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        digest.withUnsafeMutableBufferPointer { output in _ = EVP_DigestFinal_ex(context, output.baseAddress, &length) }
        return digest
    }

    /// The digest as 64 lower-case hex digits (call once; the hasher is spent after it).
    public func hex() -> String {
        SHA256Digest.lowerHex(digest())
    }
}

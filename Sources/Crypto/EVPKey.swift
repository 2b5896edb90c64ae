import COpenSSL
import Foundation

/// An OpenSSL `EVP_PKEY`, owned by exactly this object and freed once in `deinit`.
///
/// OpenSSL 3 allows concurrent read-only use of one `EVP_PKEY` (each operation makes its own context),
/// hence `@unchecked Sendable`; nothing mutates the key after construction.
package final class EVPKey: @unchecked Sendable {
    package let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    package init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Parses a PEM private key (PKCS#8 "PRIVATE KEY", or traditional EC/RSA forms); never prompts for a password.
    static func privateKey(pem: String) throws -> EVPKey {
        let bytes = Array(pem.utf8)
        return try bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                throw OpenSSLErrorQueue.error("BIO_new_mem_buf")
            }
            defer { BIO_free(bio) }
            // A callback returning 0 makes encrypted keys fail instead of prompting on a terminal.
            guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
                throw CryptoError.invalidKey("not a readable unencrypted PEM private key (\(OpenSSLErrorQueue.drain()))")
            }
            return EVPKey(taking: key)
        }
    }

    /// The key's base type, e.g. `EVP_PKEY_EC` or `EVP_PKEY_RSA`.
    var baseID: Int32 { EVP_PKEY_get_base_id(pointer) }

    /// The key size in bits.
    var bits: Int32 { EVP_PKEY_get_bits(pointer) }

    /// The EC curve name ("prime256v1" for P-256), nil for non-EC keys.
    var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &buffer, buffer.count, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True for an EC key on P-256.
    var isP256: Bool { baseID == EVP_PKEY_EC && groupName == "prime256v1" }

    /// Signs `message` with SHA-256 (`EVP_DigestSign`); ECDSA yields DER, RSA yields PKCS#1 v1.5.
    func digestSignSHA256(_ message: Data) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_DigestSignInit")
        }
        return try message.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> [UInt8] in
            let bytes = input.bindMemory(to: UInt8.self)
            var length = 0
            guard EVP_DigestSign(context, nil, &length, bytes.baseAddress, bytes.count) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_DigestSign (size)")
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, bytes.baseAddress, bytes.count) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_DigestSign")
            }
            return Array(signature.prefix(length))
        }
    }

    /// The SubjectPublicKeyInfo as PEM ("-----BEGIN PUBLIC KEY-----").
    func publicKeyPEM() throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.error("BIO_new") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PUBKEY(bio, pointer) == 1 else { throw OpenSSLErrorQueue.error("PEM_write_bio_PUBKEY") }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { throw OpenSSLErrorQueue.error("BIO_get_mem_data") }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

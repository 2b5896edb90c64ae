import COpenSSL
import Foundation

extension EVPKey {
    /// A fresh P-256 key pair from OpenSSL's default random generator.
    package static func generateP256() throws -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw OpenSSLErrorQueue.error("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_set_ec_paramgen_curve_nid")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen(context, &key) == 1, let key else { throw OpenSSLErrorQueue.error("EVP_PKEY_keygen") }
        return EVPKey(taking: key)
    }

    /// Parses a PEM public key ("-----BEGIN PUBLIC KEY-----", SubjectPublicKeyInfo).
    static func publicKey(pem: String) throws -> EVPKey {
        let bytes = Array(pem.utf8)
        return try bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                throw OpenSSLErrorQueue.error("BIO_new_mem_buf")
            }
            defer { BIO_free(bio) }
            guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
                throw CryptoError.invalidKey("not a readable PEM public key (\(OpenSSLErrorQueue.drain()))")
            }
            return EVPKey(taking: key)
        }
    }

    /// The private key as unencrypted PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----").
    package func privateKeyPEM() throws -> String {
        try MemoryBIO.text { bio in PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 }
    }

    /// Checks a SHA-256 signature (DER ECDSA or PKCS#1 v1.5 RSA) over `message`; false when it does not verify.
    func digestVerifySHA256(signature: [UInt8], message: Data) throws -> Bool {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_DigestVerifyInit")
        }
        let result = message.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int32 in
            let bytes = input.bindMemory(to: UInt8.self)
            return EVP_DigestVerify(context, signature, signature.count, bytes.baseAddress, bytes.count)
        }
        if result != 1 { OpenSSLErrorQueue.clear() }
        return result == 1
    }
}

/// Runs an OpenSSL writer against a memory BIO and returns what it wrote.
package enum MemoryBIO {
    /// The bytes `write` put into a fresh memory BIO; throws when it reports failure.
    package static func bytes(_ write: (OpaquePointer) -> Bool) throws -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.error("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) else { throw OpenSSLErrorQueue.error("PEM write") }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { throw OpenSSLErrorQueue.error("BIO_get_mem_data") }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The text `write` put into a fresh memory BIO.
    package static func text(_ write: (OpaquePointer) -> Bool) throws -> String {
        String(decoding: try bytes(write), as: UTF8.self)
    }
}

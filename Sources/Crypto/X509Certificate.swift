import COpenSSL
import Foundation

/// An OpenSSL `X509`, owned by exactly this object and freed once in `deinit`; never mutated after parsing.
package final class X509Certificate: @unchecked Sendable {
    package let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    package init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Parses one DER certificate; trailing bytes are rejected.
    convenience init(der: Data) throws {
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var cursor = bytes.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, bytes.count) else { return nil }
            guard let start = bytes.baseAddress, cursor == start + bytes.count else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let parsed else {
            throw CryptoError.invalidCertificate("not a DER certificate (\(OpenSSLErrorQueue.drain()))")
        }
        self.init(taking: parsed)
    }

    /// Every certificate in a PEM file's bytes (one or more `BEGIN CERTIFICATE` blocks) or one DER certificate.
    /// DER starts with a SEQUENCE tag (0x30); anything else is read as PEM text.
    static func load(pemOrDER data: Data) throws -> [X509Certificate] {
        if data.first == 0x30 {
            return [try X509Certificate(der: data)]
        }
        return try data.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                throw OpenSSLErrorQueue.error("BIO_new_mem_buf")
            }
            defer { BIO_free(bio) }
            var certificates: [X509Certificate] = []
            while let next = PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(X509Certificate(taking: next))
            }
            // Reading stops with a "no start line" error at the end of the input; that is not a failure.
            OpenSSLErrorQueue.clear()
            guard !certificates.isEmpty else { throw CryptoError.invalidCertificate("no PEM certificate found") }
            return certificates
        }
    }

    /// True when the certificate carries an extension with this OID (critical or not).
    func hasExtension(_ oid: ASN1ObjectID) -> Bool {
        X509_get_ext_by_OBJ(pointer, oid.pointer, -1) >= 0
    }

    /// The leaf's public key, owned by a new `EVPKey`.
    func publicKey() throws -> EVPKey {
        guard let key = X509_get_pubkey(pointer) else { throw OpenSSLErrorQueue.error("X509_get_pubkey") }
        return EVPKey(taking: key)
    }

    /// True when both are the same certificate.
    func isSame(as other: OpaquePointer) -> Bool {
        X509_cmp(pointer, other) == 0
    }

    /// `notBefore` and `notAfter` of any certificate handle, as seconds since 1970.
    static func validity(of certificate: OpaquePointer) -> (notBefore: Int, notAfter: Int)? {
        guard let notBefore = seconds(X509_get0_notBefore(certificate)),
              let notAfter = seconds(X509_get0_notAfter(certificate)) else { return nil }
        return (notBefore, notAfter)
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return Int(timegm(&parts))
    }
}

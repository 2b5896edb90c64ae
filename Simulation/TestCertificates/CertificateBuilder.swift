import COpenSSL
import Crypto
import Foundation

/// Issues X.509 v3 certificates with OpenSSL for the test certificate authority.
enum CertificateBuilder {
    /// What one certificate says about its subject.
    struct Profile {
        let commonName: String
        let serial: Int
        let notBefore: Int
        let notAfter: Int
        /// `(nid, value)` pairs in OpenSSL's config syntax, e.g. `(NID_basic_constraints, "critical,CA:TRUE")`.
        let extensions: [(Int32, String)]
        /// Dotted OIDs added as non-critical extensions whose value is an ASN.1 NULL.
        let nullMarkerOIDs: [String]
    }

    /// Signs a certificate for `subjectKey` with `issuer` (nil: self-signed with `subjectKey`).
    static func issue(_ profile: Profile, subjectKey: EVPKey,
                      issuer: (certificate: X509Certificate, key: EVPKey)?) throws -> X509Certificate {
        guard let x509 = X509_new() else { throw OpenSSLErrorQueue.error("X509_new") }
        let certificate = X509Certificate(taking: x509)
        guard X509_set_version(x509, 2) == 1,
              ASN1_INTEGER_set(X509_get_serialNumber(x509), profile.serial) == 1,
              ASN1_TIME_set(X509_getm_notBefore(x509), time_t(profile.notBefore)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(x509), time_t(profile.notAfter)) != nil,
              X509_set_pubkey(x509, subjectKey.pointer) == 1 else {
            throw OpenSSLErrorQueue.error("X509 fields")
        }
        guard let name = X509_get_subject_name(x509) else { throw OpenSSLErrorQueue.error("X509_get_subject_name") }
        for (field, value) in [("O", "Store Simulator Test PKI"), ("CN", profile.commonName)] {
            let bytes = Array(value.utf8)
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC, bytes, Int32(bytes.count), -1, 0) == 1 else {
                throw OpenSSLErrorQueue.error("X509_NAME_add_entry_by_txt")
            }
        }
        let issuerCertificate = issuer?.certificate.pointer ?? x509
        guard X509_set_issuer_name(x509, X509_get_subject_name(issuerCertificate)) == 1 else {
            throw OpenSSLErrorQueue.error("X509_set_issuer_name")
        }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerCertificate, x509, nil, nil, 0)
        for (nid, value) in profile.extensions {
            guard let extensionPointer = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                throw OpenSSLErrorQueue.error("X509V3_EXT_nconf_nid(\(value))")
            }
            defer { X509_EXTENSION_free(extensionPointer) }
            guard X509_add_ext(x509, extensionPointer, -1) == 1 else { throw OpenSSLErrorQueue.error("X509_add_ext") }
        }
        for oid in profile.nullMarkerOIDs {
            try addNullExtension(oid, to: x509)
        }
        guard X509_sign(x509, (issuer?.key ?? subjectKey).pointer, EVP_sha256()) > 0 else {
            throw OpenSSLErrorQueue.error("X509_sign")
        }
        return certificate
    }

    /// Adds a non-critical extension `oid` whose DER value is `05 00` (ASN.1 NULL).
    private static func addNullExtension(_ oid: String, to x509: OpaquePointer) throws {
        let object = try ASN1ObjectID(oid)
        guard let value = ASN1_OCTET_STRING_new() else { throw OpenSSLErrorQueue.error("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(value) }
        let null: [UInt8] = [0x05, 0x00]
        guard ASN1_OCTET_STRING_set(value, null, Int32(null.count)) == 1,
              let extensionPointer = X509_EXTENSION_create_by_OBJ(nil, object.pointer, 0, value) else {
            throw OpenSSLErrorQueue.error("X509_EXTENSION_create_by_OBJ(\(oid))")
        }
        defer { X509_EXTENSION_free(extensionPointer) }
        guard X509_add_ext(x509, extensionPointer, -1) == 1 else { throw OpenSSLErrorQueue.error("X509_add_ext") }
    }

    /// The certificate's DER encoding.
    static func der(_ certificate: X509Certificate) throws -> Data {
        let length = i2d_X509(certificate.pointer, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.error("i2d_X509") }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate.pointer, &cursor)
        }
        guard written == length else { throw OpenSSLErrorQueue.error("i2d_X509") }
        return Data(output)
    }

    /// The certificate as one PEM block.
    static func pem(_ certificate: X509Certificate) throws -> String {
        try MemoryBIO.text { bio in PEM_write_bio_X509(bio, certificate.pointer) == 1 }
    }
}

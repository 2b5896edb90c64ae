import COpenSSL
import Foundation

/// The configured trusted roots in an `X509_STORE` (owned by this object), and RFC 5280 path validation against them.
///
/// Validation always runs in OpenSSL's strict X.509 mode (`X509_V_FLAG_X509_STRICT`): besides the default checks it
/// refuses, among others, a CA without a Subject Key Identifier or a critical basicConstraints, and a certificate
/// without an Authority Key Identifier. Apple's real chain (Apple Root CA - G3 → Apple Worldwide Developer Relations
/// CA G6 → App Store receipt-signing leaf) passes it, so production loses nothing and a malformed look-alike chain
/// is refused rather than accepted leniently.
final class TrustStore: @unchecked Sendable {
    private let store: OpaquePointer
    private let roots: [X509Certificate]

    /// The result of validating leaf → intermediate → root at one instant.
    enum PathResult {
        /// Valid; `validFrom…validUntil` is the intersection of the three certificates' validity periods.
        case valid(validFrom: Int, validUntil: Int)
        /// OpenSSL rejected the path; `code` is the `X509_V_ERR_*` value.
        case rejected(code: Int32, message: String)
        /// The path OpenSSL built is not exactly leaf → given intermediate → a configured root.
        case unexpectedPath(String)
        /// OpenSSL could not run the check (allocation failure and the like).
        case failure(String)
    }

    /// Adds every certificate to a new store; throws when there is none or OpenSSL refuses one.
    init(roots: [X509Certificate]) throws {
        guard !roots.isEmpty else { throw CryptoError.invalidCertificate("no trusted root certificate configured") }
        guard let store = X509_STORE_new() else { throw OpenSSLErrorQueue.error("X509_STORE_new") }
        for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
            let error = OpenSSLErrorQueue.error("X509_STORE_add_cert")
            X509_STORE_free(store)
            throw error
        }
        self.store = store
        self.roots = roots
    }

    deinit {
        X509_STORE_free(store)
    }

    /// Validates the path from `leaf` through `intermediate` (the only untrusted certificate offered) at `time`.
    func validate(leaf: X509Certificate, intermediate: X509Certificate, at time: Int) -> PathResult {
        guard let context = X509_STORE_CTX_new() else { return .failure(OpenSSLErrorQueue.drain()) }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else { return .failure(OpenSSLErrorQueue.drain()) }
        defer { OPENSSL_sk_free(untrusted) }  // frees the stack only; the certificate stays owned by `intermediate`
        guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.pointer)) > 0,
              X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            return .failure(OpenSSLErrorQueue.drain())
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, time_t(time))
        guard X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT)) == 1 else {
            return .failure(OpenSSLErrorQueue.drain())
        }
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            OpenSSLErrorQueue.clear()
            let message = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            return .rejected(code: code, message: message)
        }
        guard let chain = X509_STORE_CTX_get0_chain(context) else { return .unexpectedPath("no chain built") }
        let count = OPENSSL_sk_num(chain)
        guard count == 3 else { return .unexpectedPath("path has \(count) certificates, expected 3") }
        var validFrom = Int.min
        var validUntil = Int.max
        var certificates: [OpaquePointer] = []
        for index in 0..<count {
            guard let raw = OPENSSL_sk_value(chain, index) else { return .unexpectedPath("empty path element") }
            let certificate = OpaquePointer(raw)
            certificates.append(certificate)
            guard let validity = X509Certificate.validity(of: certificate) else {
                return .unexpectedPath("unreadable validity dates")
            }
            validFrom = max(validFrom, validity.notBefore)
            validUntil = min(validUntil, validity.notAfter)
        }
        guard leaf.isSame(as: certificates[0]), intermediate.isSame(as: certificates[1]) else {
            return .unexpectedPath("path does not run through the x5c intermediate")
        }
        return .valid(validFrom: validFrom, validUntil: validUntil)
    }
}

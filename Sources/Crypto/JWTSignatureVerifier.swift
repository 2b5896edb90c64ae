import COpenSSL
import Foundation

/// Verifies compact JWTs signed with one known public key: ES256 (P-256, raw r‖s) or RS256 (RSA PKCS#1 v1.5).
///
/// Checks the structure, `alg` and signature only; claims (`exp`, `aud`, …) are the caller's to judge.
public struct JWTSignatureVerifier: Sendable {
    /// "ES256" for a P-256 key, "RS256" for an RSA key.
    public let algorithm: String
    let key: EVPKey

    /// Loads a PEM public key (SubjectPublicKeyInfo); throws for keys other than P-256 or RSA ≥ 2048 bits.
    public init(publicKeyPEM: String) throws {
        let key = try EVPKey.publicKey(pem: publicKeyPEM)
        if key.isP256 {
            algorithm = "ES256"
        } else if key.baseID == EVP_PKEY_RSA, key.bits >= 2048 {
            algorithm = "RS256"
        } else {
            throw CryptoError.invalidKey("JWT verification needs a P-256 or RSA (≥ 2048 bits) public key")
        }
        self.key = key
    }

    /// The header and claims of `token` when its signature verifies.
    public func verify(_ token: String) throws(JWTVerificationError) -> (header: JSONValue, claims: JSONValue) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("\(parts.count) parts, expected 3") }
        guard let headerData = Base64.decodeURL(parts[0]), let claimsData = Base64.decodeURL(parts[1]),
              let signature = Base64.decodeURL(parts[2]) else {
            throw .malformed("a part is not base64url")
        }
        guard let header = try? JSONValue.parse(headerData), case .object = header,
              let claims = try? JSONValue.parse(claimsData), case .object = claims else {
            throw .malformed("header or claims are not JSON objects")
        }
        guard header["alg"]?.stringValue == algorithm else { throw .unsupportedAlgorithm(header["alg"]?.stringValue) }
        let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        let derSignature: [UInt8]
        if algorithm == "ES256" {
            guard signature.count == 64, let der = try? ECDSASignature.der(fromRaw: signature) else { throw .badSignature }
            derSignature = der
        } else {
            derSignature = Array(signature)
        }
        guard (try? key.digestVerifySHA256(signature: derSignature, message: signingInput)) == true else {
            throw .badSignature
        }
        return (header, claims)
    }
}

import COpenSSL
import Foundation

/// Signs JWTs with RS256 (RSASSA-PKCS1-v1_5, SHA-256), as Google's OAuth service-account flow requires.
public final class RS256Signer: JWTSigner {
    /// Always "RS256".
    public let algorithm = "RS256"
    let key: EVPKey

    /// Loads an RSA private key (≥ 2048 bits) from PEM text, e.g. a service account's `private_key`.
    public init(privateKeyPEM: String) throws {
        let key = try EVPKey.privateKey(pem: privateKeyPEM)
        guard key.baseID == EVP_PKEY_RSA else { throw CryptoError.invalidKey("RS256 needs an RSA key") }
        guard key.bits >= 2048 else { throw CryptoError.invalidKey("RS256 needs at least 2048 bits, got \(key.bits)") }
        self.key = key
    }

    /// Signs `message` with SHA-256 and PKCS#1 v1.5 padding.
    public func sign(_ message: Data) throws -> Data {
        Data(try key.digestSignSHA256(message))
    }

    /// The matching public key as PEM (SubjectPublicKeyInfo).
    public func publicKeyPEM() throws -> String {
        try key.publicKeyPEM()
    }
}

import COpenSSL
import Foundation

/// Signs JWS/JWT with ES256 (ECDSA P-256, SHA-256) and returns raw 64-byte r‖s signatures.
public final class ES256Signer: JWTSigner {
    /// Always "ES256".
    public let algorithm = "ES256"
    let key: EVPKey

    /// Loads a P-256 private key from PEM text, e.g. an App Store Connect `.p8` file (PKCS#8).
    public init(privateKeyPEM: String) throws {
        let key = try EVPKey.privateKey(pem: privateKeyPEM)
        guard key.isP256 else {
            throw CryptoError.invalidKey("ES256 needs an EC P-256 key, got \(key.groupName ?? "a non-EC key")")
        }
        self.key = key
    }

    /// Loads a P-256 private key from a PEM file such as `AuthKey_<keyId>.p8` (refused unless mode 0600 or stricter).
    public convenience init(privateKeyFile path: String) throws {
        try self.init(privateKeyPEM: String(decoding: try FileText.readPrivateKey(path), as: UTF8.self))
    }

    /// Signs `message` with SHA-256 and returns r‖s, 32 bytes each, left-padded.
    public func sign(_ message: Data) throws -> Data {
        try ECDSASignature.raw(fromDER: key.digestSignSHA256(message), componentLength: 32)
    }

    /// The matching public key as PEM (SubjectPublicKeyInfo), e.g. for a test verifier.
    public func publicKeyPEM() throws -> String {
        try key.publicKeyPEM()
    }
}

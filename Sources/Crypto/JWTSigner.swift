import Foundation

/// Produces the JWS signature bytes for one JOSE algorithm (ES256 raw r‖s, RS256 PKCS#1 v1.5).
public protocol JWTSigner: Sendable {
    /// The JOSE `alg` header value, e.g. "ES256".
    var algorithm: String { get }

    /// Signs `message` (the ASCII `header.payload` signing input) and returns the JWS signature bytes.
    func sign(_ message: Data) throws -> Data
}

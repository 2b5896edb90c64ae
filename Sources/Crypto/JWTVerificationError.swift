/// Why `JWTSignatureVerifier` rejected a token.
public enum JWTVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three base64url parts of JSON objects.
    case malformed(String)
    /// The header's `alg` is not the one the configured key signs with.
    case unsupportedAlgorithm(String?)
    /// The signature does not verify with the configured key.
    case badSignature

    /// A human-readable message.
    public var description: String {
        switch self {
        case let .malformed(reason): return "malformed JWT: \(reason)"
        case let .unsupportedAlgorithm(alg): return "unsupported JWT algorithm \(alg ?? "missing")"
        case .badSignature: return "JWT signature does not verify"
        }
    }
}

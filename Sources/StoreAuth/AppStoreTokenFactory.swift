import Crypto
import Foundation

/// Builds the ES256 bearer JWTs that authenticate calls to the App Store Server API.
///
/// Header `{alg: ES256, kid, typ: JWT}`; claims `iss`, `iat`, `exp`, `aud: "appstoreconnect-v1"`, `bid`.
/// The clock is a parameter: callers pass `now`, so tokens are reproducible in tests.
public struct AppStoreTokenFactory: Sendable {
    /// The `aud` claim Apple requires.
    public static let audience = "appstoreconnect-v1"
    /// Apple's own library uses 5 minutes and a fresh token per request.
    public static let defaultLifetimeSeconds = 300
    /// Apple rejects tokens whose `exp` is more than 60 minutes after `iat`.
    public static let maximumLifetimeSeconds = 3600

    /// The App Store Connect key ID (`kid`).
    public let keyId: String
    /// The issuer ID of the App Store Connect team (`iss`).
    public let issuerId: String
    /// The app's bundle ID (`bid`).
    public let bundleId: String
    /// Seconds from `iat` to `exp`.
    public let lifetimeSeconds: Int
    let signer: ES256Signer

    /// Creates a factory; throws when an identifier is empty or the lifetime is not within 1…3600 seconds.
    public init(keyId: String, issuerId: String, bundleId: String, signer: ES256Signer,
                lifetimeSeconds: Int = AppStoreTokenFactory.defaultLifetimeSeconds) throws {
        for (name, value) in [("keyId", keyId), ("issuerId", issuerId), ("bundleId", bundleId)] where value.isEmpty {
            throw CryptoError.invalidArgument("\(name) must not be empty")
        }
        guard (1...Self.maximumLifetimeSeconds).contains(lifetimeSeconds) else {
            throw CryptoError.invalidArgument(
                "token lifetime must be 1…\(Self.maximumLifetimeSeconds) seconds, got \(lifetimeSeconds)")
        }
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.signer = signer
        self.lifetimeSeconds = lifetimeSeconds
    }

    /// Creates a factory from the text of a `.p8` key file.
    public init(keyId: String, issuerId: String, bundleId: String, privateKeyPEM: String,
                lifetimeSeconds: Int = AppStoreTokenFactory.defaultLifetimeSeconds) throws {
        try self.init(keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                      signer: ES256Signer(privateKeyPEM: privateKeyPEM), lifetimeSeconds: lifetimeSeconds)
    }

    /// A signed token issued at `now` (whole seconds, rounded down) and expiring `lifetimeSeconds` later.
    public func makeToken(now: Date) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let header = Header(alg: signer.algorithm, kid: keyId, typ: "JWT")
        let claims = Claims(iss: issuerId, iat: issuedAt, exp: issuedAt + Int64(lifetimeSeconds),
                            aud: Self.audience, bid: bundleId)
        return try CompactJWS.encode(header: header, payload: claims, signer: signer)
    }

    struct Header: Encodable {
        let alg: String
        let kid: String
        let typ: String
    }

    struct Claims: Encodable {
        let iss: String
        let iat: Int64
        let exp: Int64
        let aud: String
        let bid: String
    }
}

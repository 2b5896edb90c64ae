import Crypto
import Foundation

/// Builds the ES256 bearer JWTs of the App Store Connect API (report downloads): the team key's `kid` and issuer,
/// `aud` `appstoreconnect-v1`, no `bid` (the token is the team's, not an app's), `exp` at most 20 minutes after `iat`.
public struct AppStoreConnectTokenFactory: Sendable {
    /// App Store Connect rejects tokens that live longer than 20 minutes.
    public static let maximumLifetimeSeconds = 1_200
    /// The default lifetime: 10 minutes.
    public static let defaultLifetimeSeconds = 600

    /// The key ID (`kid`).
    public let keyId: String
    /// The team's issuer ID (`iss`).
    public let issuerId: String
    /// Seconds from `iat` to `exp`.
    public let lifetimeSeconds: Int
    let signer: ES256Signer

    /// Creates a factory; throws when an identifier is empty or the lifetime is not within 1…1200 seconds.
    public init(keyId: String, issuerId: String, signer: ES256Signer, lifetimeSeconds: Int = AppStoreConnectTokenFactory.defaultLifetimeSeconds) throws {
        for (name, value) in [("keyId", keyId), ("issuerId", issuerId)] where value.isEmpty {
            throw CryptoError.invalidArgument("\(name) must not be empty")
        }
        guard (1...Self.maximumLifetimeSeconds).contains(lifetimeSeconds) else {
            throw CryptoError.invalidArgument("App Store Connect token lifetime must be 1…\(Self.maximumLifetimeSeconds) seconds, got \(lifetimeSeconds)")
        }
        self.keyId = keyId
        self.issuerId = issuerId
        self.signer = signer
        self.lifetimeSeconds = lifetimeSeconds
    }

    /// Creates a factory from the text of a `.p8` key file.
    public init(keyId: String, issuerId: String, privateKeyPEM: String,
                lifetimeSeconds: Int = AppStoreConnectTokenFactory.defaultLifetimeSeconds) throws {
        try self.init(keyId: keyId, issuerId: issuerId, signer: ES256Signer(privateKeyPEM: privateKeyPEM), lifetimeSeconds: lifetimeSeconds)
    }

    /// A signed token issued at `now` (whole seconds, rounded down), expiring `lifetimeSeconds` later.
    public func makeToken(now: Date) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        return try CompactJWS.encode(header: Header(alg: signer.algorithm, kid: keyId, typ: "JWT"),
                                     payload: Claims(iss: issuerId, iat: issuedAt, exp: issuedAt + Int64(lifetimeSeconds),
                                                     aud: AppStoreTokenFactory.audience),
                                     signer: signer)
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
    }
}

import Crypto
import Foundation

/// Builds the RS256 JWT assertion and token-request form body of Google's service-account OAuth flow.
public struct GoogleOAuthAssertionFactory: Sendable {
    /// Scope for the Play Developer API.
    public static let androidPublisherScope = "https://www.googleapis.com/auth/androidpublisher"
    /// Scope for reading report files in Cloud Storage.
    public static let storageReadOnlyScope = "https://www.googleapis.com/auth/devstorage.read_only"
    /// The OAuth grant type of the JWT bearer flow (RFC 7523).
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// Google accepts assertions valid for at most one hour.
    public static let maximumLifetimeSeconds = 3600

    /// The account's email (`iss`).
    public let clientEmail: String
    /// The token endpoint (`aud`, and where the body is posted).
    public let tokenURI: String
    /// The key ID sent as the header `kid`, when the key file has one.
    public let keyId: String?
    let signer: RS256Signer

    /// Loads the account's RSA key.
    public init(serviceAccount: GoogleServiceAccountKey) throws {
        guard !serviceAccount.clientEmail.isEmpty else { throw CryptoError.invalidKey("client_email is empty") }
        guard !serviceAccount.tokenURI.isEmpty else { throw CryptoError.invalidKey("token_uri is empty") }
        signer = try RS256Signer(privateKeyPEM: serviceAccount.privateKey)
        clientEmail = serviceAccount.clientEmail
        tokenURI = serviceAccount.tokenURI
        keyId = serviceAccount.privateKeyId
    }

    /// The signed assertion for `scopes` (space-joined), issued at `now` and valid `lifetimeSeconds` (≤ 3600).
    public func makeAssertion(scopes: [String], now: Date,
                              lifetimeSeconds: Int = GoogleOAuthAssertionFactory.maximumLifetimeSeconds) throws -> String {
        guard !scopes.isEmpty, scopes.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else {
            throw CryptoError.invalidArgument("scopes must be non-empty strings without spaces")
        }
        guard (1...Self.maximumLifetimeSeconds).contains(lifetimeSeconds) else {
            throw CryptoError.invalidArgument(
                "assertion lifetime must be 1…\(Self.maximumLifetimeSeconds) seconds, got \(lifetimeSeconds)")
        }
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(iss: clientEmail, scope: scopes.joined(separator: " "), aud: tokenURI,
                            iat: issuedAt, exp: issuedAt + Int64(lifetimeSeconds))
        return try CompactJWS.encode(header: Header(alg: signer.algorithm, typ: "JWT", kid: keyId),
                                     payload: claims, signer: signer)
    }

    /// The `application/x-www-form-urlencoded` body to POST to `tokenURI`.
    public func makeTokenRequestBody(scopes: [String], now: Date) throws -> String {
        FormURLEncoding.encode([
            ("grant_type", Self.grantType),
            ("assertion", try makeAssertion(scopes: scopes, now: now)),
        ])
    }

    struct Header: Encodable {
        let alg: String
        let typ: String
        let kid: String?
    }

    struct Claims: Encodable {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int64
        let exp: Int64
    }
}

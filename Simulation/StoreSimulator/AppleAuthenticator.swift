import Crypto
import Foundation
import HTTP

/// Checks the ES256 bearer JWT of App Store Server API and App Store Connect requests.
struct AppleAuthenticator: Sendable {
    let key: AppStoreConnectKey
    let verifier: JWTSignatureVerifier
    let bundleId: String
    /// Signatures already verified; the claims are still checked on every request.
    let verifiedTokens = VerifiedTokenCache()

    init(key: AppStoreConnectKey, bundleId: String) throws(SimulatorError) {
        do {
            verifier = try JWTSignatureVerifier(publicKeyPEM: key.publicKeyPEM)
        } catch {
            throw .setup("App Store Connect public key: \(error)")
        }
        guard verifier.algorithm == "ES256" else { throw .setup("the App Store Connect key must be EC P-256") }
        self.key = key
        self.bundleId = bundleId
    }

    /// Nil when the token is acceptable; otherwise why not. Report downloads need no `bid` and allow 20 minutes.
    func rejection(of request: HTTPRequest, reports: Bool, now: Date) -> String? {
        guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ") else {
            return "missing bearer token"
        }
        let claims: JSONValue
        do {
            let decoded = try verifiedTokens.decoded(String(authorization.dropFirst("Bearer ".count)), verify: verifier.verify)
            guard decoded.header["kid"]?.stringValue == key.keyId else { return "kid is not the configured key id" }
            claims = decoded.claims
        } catch {
            return error.description
        }
        guard claims.text("iss") == key.issuerId else { return "iss is not the configured issuer id" }
        guard claims.text("aud") == "appstoreconnect-v1" else { return "aud is not appstoreconnect-v1" }
        guard let issuedAt = claims["iat"]?.int64Value, let expires = claims["exp"]?.int64Value else {
            return "iat and exp must be integers"
        }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard expires > seconds else { return "token expired" }
        guard issuedAt <= seconds + 60 else { return "iat is in the future" }
        guard expires > issuedAt, expires - issuedAt <= (reports ? 1200 : 3600) else {
            return "exp must be within \(reports ? 20 : 60) minutes of iat"
        }
        if !reports, claims.text("bid") != bundleId { return "bid is not the app's bundle id" }
        return nil
    }
}

import Crypto
import Foundation
import HTTP
import StoreAuth

/// Google's OAuth token endpoint for service accounts, and the bearer check of later requests.
struct GoogleOAuth: Sendable {
    static let publisherScope = "https://www.googleapis.com/auth/androidpublisher"
    static let storageScopes: Set<String> = [
        "https://www.googleapis.com/auth/devstorage.read_only", "https://www.googleapis.com/auth/devstorage.full_control",
        "https://www.googleapis.com/auth/cloud-platform",
    ]

    let identity: GoogleServiceAccountIdentity?
    let verifier: JWTSignatureVerifier?
    let lifetimeSeconds: Int

    init(identity: GoogleServiceAccountIdentity?, lifetimeSeconds: Int) throws(SimulatorError) {
        if let identity {
            do {
                verifier = try JWTSignatureVerifier(publicKeyPEM: identity.publicKeyPEM)
            } catch {
                throw .setup("service account public key: \(error)")
            }
            guard verifier?.algorithm == "RS256" else { throw .setup("the service account key must be RSA") }
        } else {
            verifier = nil
        }
        self.identity = identity
        self.lifetimeSeconds = lifetimeSeconds
    }

    /// POST /token with `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=…`.
    func token(_ request: HTTPRequest, state: SimulatorState, now: Date) -> HTTPResponse {
        let form = Self.form(request.body)
        guard form["grant_type"] == GoogleOAuthAssertionFactory.grantType else {
            return Self.oauthError("unsupported_grant_type", "Invalid grant_type: \(form["grant_type"] ?? "")")
        }
        guard let assertion = form["assertion"], !assertion.isEmpty else {
            return Self.oauthError("invalid_request", "Missing required parameter: assertion")
        }
        let claims: JSONValue
        if let verifier {
            do {
                claims = try verifier.verify(assertion).claims
            } catch {
                return Self.oauthError("invalid_grant", "Invalid JWT Signature.")
            }
        } else {
            let parts = assertion.split(separator: ".")
            guard parts.count == 3, let data = Base64.decodeURL(parts[1]), let parsed = try? JSONValue.parse(data) else {
                return Self.oauthError("invalid_grant", "Invalid JWT.")
            }
            claims = parsed
        }
        if let identity, claims.text("iss") != identity.clientEmail {
            return Self.oauthError("invalid_grant", "Invalid JWT: iss is not the service account.")
        }
        guard let audience = claims.text("aud"), audience.hasSuffix("/token") else {
            return Self.oauthError("invalid_grant", "Invalid JWT: aud is not a token endpoint.")
        }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard let issuedAt = claims["iat"]?.int64Value, let expires = claims["exp"]?.int64Value,
              expires > seconds, issuedAt <= seconds + 60, expires > issuedAt, expires - issuedAt <= 3600 else {
            return Self.oauthError("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.")
        }
        let scopes = Set((claims.text("scope") ?? "").split(separator: " ").map(String.init))
        guard !scopes.isEmpty else { return Self.oauthError("invalid_scope", "Empty or missing scope not allowed.") }
        let token = state.issueAccessToken(expires: now.addingTimeInterval(Double(lifetimeSeconds)), scopes: scopes)
        return Responses.json(200, .object([
            "access_token": .string(token), "expires_in": .integer(Int64(lifetimeSeconds)), "token_type": .string("Bearer"),
        ]))
    }

    /// Nil when the request carries a live token with a scope for `endpoint`; otherwise Google's 401 or 403.
    func rejection(of request: HTTPRequest, endpoint: SimulatorEndpoint, state: SimulatorState, now: Date) -> HTTPResponse? {
        guard identity != nil else { return nil }
        guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer "),
              let scopes = state.accessTokenScopes(String(authorization.dropFirst("Bearer ".count)), now: now) else {
            return Responses.google(401, "UNAUTHENTICATED",
                                    "Request had invalid authentication credentials. Expected OAuth 2 access token.",
                                    reason: "authError", domain: "global")
        }
        let storage = endpoint == .storageList || endpoint == .storageDownload
        guard storage ? !scopes.isDisjoint(with: Self.storageScopes) : scopes.contains(Self.publisherScope) else {
            return Responses.google(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.",
                                    reason: "insufficientPermissions", domain: "global")
        }
        return nil
    }

    /// Google's OAuth error body.
    static func oauthError(_ error: String, _ description: String) -> HTTPResponse {
        Responses.json(400, .object(["error": .string(error), "error_description": .string(description)]))
    }

    /// Decodes an `application/x-www-form-urlencoded` body (first value of each name).
    static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }
}

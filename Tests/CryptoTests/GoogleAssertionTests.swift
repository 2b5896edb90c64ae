import Foundation
@testable import StoreAuth
import Testing
@testable import Crypto

@Suite struct GoogleAssertionTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let email = "pipeline@example-project.iam.gserviceaccount.com"

    /// A fake key file: JSON encoding turns the PEM's newlines into `\n` escapes, as in real files.
    func keyFileJSON(_ pki: TestPKI, tokenURI: String? = "https://oauth2.googleapis.com/token") throws -> Data {
        var fields = ["type": "service_account", "project_id": "example-project", "private_key_id": "k1",
                      "private_key": pki.rsaKeyPEM, "client_email": Self.email]
        fields["token_uri"] = tokenURI
        return try JSONEncoder().encode(fields)
    }

    @Test func formBodyCarriesAVerifiableAssertion() throws {
        let pki = try TestPKI.shared.get()
        let json = try keyFileJSON(pki)
        #expect(String(decoding: json, as: UTF8.self).contains("\\n"))
        let key = try GoogleServiceAccountKey(jsonData: json)
        #expect(!key.description.contains("PRIVATE KEY"))
        let factory = try GoogleOAuthAssertionFactory(serviceAccount: key)
        let scopes = [GoogleOAuthAssertionFactory.androidPublisherScope, GoogleOAuthAssertionFactory.storageReadOnlyScope]
        let body = try factory.makeTokenRequestBody(scopes: scopes, now: Self.now)

        let pairs = body.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        try #require(pairs.count == 2 && pairs.allSatisfy { $0.count == 2 })
        #expect(pairs[0] == ["grant_type", "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"])
        #expect(pairs[1][0] == "assertion")
        var components = URLComponents()
        components.percentEncodedQuery = body
        #expect(components.queryItems?.first { $0.name == "grant_type" }?.value == GoogleOAuthAssertionFactory.grantType)

        let jwt = pairs[1][1]
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let header = try JSONDecoder().decode(JSONValue.self, from: try #require(Base64.decodeURL(parts[0])))
        let claims = try JSONDecoder().decode(JSONValue.self, from: try #require(Base64.decodeURL(parts[1])))
        #expect(header == .object(["alg": .string("RS256"), "typ": .string("JWT"), "kid": .string("k1")]))
        #expect(claims == .object([
            "iss": .string(Self.email), "scope": .string(scopes.joined(separator: " ")),
            "aud": .string("https://oauth2.googleapis.com/token"),
            "iat": .integer(1_700_000_000), "exp": .integer(1_700_003_600),
        ]))

        let dir = try OpenSSLTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(pki.rsaPublicKeyPEM.utf8).write(to: dir.appendingPathComponent("pub.pem"))
        try Data((parts[0] + "." + parts[1]).utf8).write(to: dir.appendingPathComponent("input.txt"))
        try #require(Base64.decodeURL(parts[2])).write(to: dir.appendingPathComponent("sig.bin"))
        let arguments = ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.bin", "input.txt"]
        #expect(try OpenSSLTool.check(arguments, in: dir).contains("Verified OK"))
        try Data("tampered".utf8).write(to: dir.appendingPathComponent("input.txt"))
        #expect(try OpenSSLTool.run(arguments, in: dir).status != 0)
    }

    @Test func keyFileRules() throws {
        let pki = try TestPKI.shared.get()
        let defaulted = try GoogleServiceAccountKey(jsonData: keyFileJSON(pki, tokenURI: nil))
        #expect(defaulted.tokenURI == GoogleServiceAccountKey.defaultTokenURI)
        #expect(throws: CryptoError.invalidKey("service-account key file has no client_email")) {
            try GoogleServiceAccountKey(jsonData: Data(#"{"private_key":"x"}"#.utf8))
        }
        let factory = try GoogleOAuthAssertionFactory(serviceAccount: defaulted)
        #expect(throws: CryptoError.self) { try factory.makeAssertion(scopes: [], now: Self.now) }
        #expect(throws: CryptoError.self) {
            try factory.makeAssertion(scopes: [GoogleOAuthAssertionFactory.androidPublisherScope], now: Self.now,
                                      lifetimeSeconds: 3601)
        }
    }

    @Test func formEncodingEscapesReservedCharacters() {
        #expect(FormURLEncoding.encode([("a b", "x&y=z/é"), ("k", "A-z_0.9*")]) == "a+b=x%26y%3Dz%2F%C3%A9&k=A-z_0.9*")
    }
}

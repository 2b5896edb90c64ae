import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import StoreAuth
import TestCertificates
import Testing
@testable import StoreSimulator

/// Keys for the App Store Connect JWT and the Google service account, made once.
enum TestKeys {
    static let ascSigner: ES256Signer? = try? TestCertificateAuthority(name: "ASC key").leafSigner
    static let otherSigner: ES256Signer? = try? TestCertificateAuthority(name: "Other key").leafSigner
    static let rsaPEM: String? = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }()

    static func appleKey() throws -> AppStoreConnectKey {
        AppStoreConnectKey(keyId: "KEY123", issuerId: "issuer-uuid", publicKeyPEM: try #require(ascSigner).publicKeyPEM())
    }

    static func googleIdentity() throws -> GoogleServiceAccountIdentity {
        GoogleServiceAccountIdentity(clientEmail: "sim@project.iam.gserviceaccount.com",
                                     publicKeyPEM: try RS256Signer(privateKeyPEM: try #require(rsaPEM)).publicKeyPEM())
    }

    static func assertionFactory() throws -> GoogleOAuthAssertionFactory {
        try GoogleOAuthAssertionFactory(serviceAccount: GoogleServiceAccountKey(
            privateKey: try #require(rsaPEM), clientEmail: "sim@project.iam.gserviceaccount.com"))
    }

    /// A JWT with arbitrary claims.
    static func jwt(_ claims: [String: JSONValue], kid: String = "KEY123", signer: ES256Signer? = ascSigner) throws -> String {
        try CompactJWS.encode(header: JSONValue.object(["alg": .string("ES256"), "kid": .string(kid), "typ": .string("JWT")]),
                              payload: JSONValue.object(claims), signer: try #require(signer))
    }
}

@Suite("Authentication: App Store JWTs and Google OAuth")
struct AuthenticationTests {
    static let iat = Int64(TruthFixture.now.timeIntervalSince1970)
    static let good: [String: JSONValue] = ["iss": .string("issuer-uuid"), "iat": .integer(iat), "exp": .integer(iat + 300),
                                            "aud": .string("appstoreconnect-v1"), "bid": .string(TruthFixture.bundleId)]

    @Test("App Store JWTs", arguments: [
        ("valid", good, "KEY123", false, 200),
        ("expired", good.merging(["iat": .integer(iat - 7200), "exp": .integer(iat - 3600)]) { $1 }, "KEY123", false, 401),
        ("lifetime over an hour", good.merging(["exp": .integer(iat + 3601)]) { $1 }, "KEY123", false, 401),
        ("wrong aud", good.merging(["aud": .string("appstoreconnect-v2")]) { $1 }, "KEY123", false, 401),
        ("wrong bid", good.merging(["bid": .string("com.other")]) { $1 }, "KEY123", false, 401),
        ("wrong iss", good.merging(["iss": .string("someone")]) { $1 }, "KEY123", false, 401),
        ("wrong kid", good, "KEY999", false, 401),
        ("bad signature", good, "KEY123", true, 401),
    ])
    func appleJWT(name: String, claims: [String: JSONValue], kid: String, otherKey: Bool, status: Int) throws {
        let harness = try SimulatorHarness(appleKey: try TestKeys.appleKey())
        let token = try TestKeys.jwt(claims, kid: kid, signer: otherKey ? TestKeys.otherSigner : TestKeys.ascSigner)
        let response = harness.send("GET", "/inApps/v1/subscriptions/1000000000000001",
                                    headers: [("Authorization", "Bearer \(token)")])
        #expect(response.status == status, "\(name)")
    }

    @Test("The token factory's tokens pass; no token fails")
    func factoryToken() throws {
        let harness = try SimulatorHarness(appleKey: try TestKeys.appleKey())
        let factory = try AppStoreTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid", bundleId: TruthFixture.bundleId,
                                               signer: try #require(TestKeys.ascSigner))
        let token = try factory.makeToken(now: TruthFixture.now)
        #expect(harness.send("GET", "/inApps/v1/transactions/1000000000000001", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        #expect(harness.send("GET", "/inApps/v1/transactions/1000000000000001").status == 401)
        // The same token again: its signature comes from the verified-token cache, its expiry is still checked.
        #expect(harness.send("GET", "/inApps/v1/transactions/1000000000000001", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        harness.clock.advance(by: 301)
        #expect(harness.send("GET", "/inApps/v1/transactions/1000000000000001", headers: [("Authorization", "Bearer \(token)")]).status == 401)
    }

    @Test("Google OAuth issues a token that later requests need, with the right scope")
    func googleOAuth() throws {
        let harness = try SimulatorHarness(googleAccount: try TestKeys.googleIdentity())
        let url = "\(GooglePlayTests.base)/subscriptionsv2/tokens/token-active"
        #expect(harness.send("GET", url).status == 401)
        let factory = try TestKeys.assertionFactory()
        let form = try factory.makeTokenRequestBody(scopes: [GoogleOAuthAssertionFactory.androidPublisherScope], now: TruthFixture.now)
        let tokenResponse = harness.send("POST", "/token", body: Data(form.utf8),
                                         headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(tokenResponse.status == 200)
        #expect(tokenResponse.json["token_type"] == .string("Bearer"))
        #expect(tokenResponse.json["expires_in"] == .integer(3600))
        let token = try #require(tokenResponse.json["access_token"]?.stringValue)
        #expect(harness.send("GET", url, headers: [("Authorization", "Bearer \(token)")]).status == 200)
        #expect(harness.send("GET", url, headers: [("Authorization", "Bearer forged")]).status == 401)
        #expect(harness.send("GET", "/storage/v1/b/pubsite_prod_rev_simulator/o", headers: [("Authorization", "Bearer \(token)")]).status == 403)
        harness.clock.advance(by: 3601)
        #expect(harness.send("GET", url, headers: [("Authorization", "Bearer \(token)")]).status == 401)
    }

    @Test("Bad assertions are refused with OAuth errors")
    func badAssertions() throws {
        let harness = try SimulatorHarness(googleAccount: try TestKeys.googleIdentity())
        let post = { (body: String) in harness.send("POST", "/token", body: Data(body.utf8)) }
        #expect(post("grant_type=password").json["error"] == .string("unsupported_grant_type"))
        #expect(post("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer").json["error"] == .string("invalid_request"))
        let forged = try TestKeys.jwt(["iss": .string("sim@project.iam.gserviceaccount.com")])
        #expect(post("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(forged)").json["error"] == .string("invalid_grant"))
        let stale = try TestKeys.assertionFactory().makeTokenRequestBody(
            scopes: [GoogleOAuthAssertionFactory.androidPublisherScope], now: TruthFixture.now.addingTimeInterval(-7200))
        #expect(post(stale).json["error"] == .string("invalid_grant"))
    }
}

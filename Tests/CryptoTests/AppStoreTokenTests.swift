import Foundation
import StoreAuth
import Testing
@testable import Crypto

@Suite struct AppStoreTokenTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000.75)

    func parts(_ token: String) throws -> (header: JSONValue, claims: JSONValue, signature: Data, input: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let header = try JSONDecoder().decode(JSONValue.self, from: try #require(Base64.decodeURL(parts[0])))
        let claims = try JSONDecoder().decode(JSONValue.self, from: try #require(Base64.decodeURL(parts[1])))
        return (header, claims, try #require(Base64.decodeURL(parts[2])), parts[0] + "." + parts[1])
    }

    @Test func tokenCarriesDocumentedHeaderAndClaims() throws {
        let pki = try TestPKI.shared.get()
        let factory = try AppStoreTokenFactory(keyId: "ABC123DEFG", issuerId: "57246542-96fe-1a63-e053-0824d011072a",
                                               bundleId: "com.example.app", privateKeyPEM: pki.leafKeyPEM)
        let token = try parts(factory.makeToken(now: Self.now))
        #expect(token.header == .object(["alg": .string("ES256"), "kid": .string("ABC123DEFG"), "typ": .string("JWT")]))
        #expect(token.claims == .object([
            "iss": .string("57246542-96fe-1a63-e053-0824d011072a"), "iat": .integer(1_700_000_000),
            "exp": .integer(1_700_000_300), "aud": .string("appstoreconnect-v1"), "bid": .string("com.example.app"),
        ]))
        #expect(token.signature.count == 64)
    }

    @Test func tokenSignatureVerifiesWithTheOpenSSLCommandLine() throws {
        let pki = try TestPKI.shared.get()
        let factory = try AppStoreTokenFactory(keyId: "K", issuerId: "I", bundleId: "B",
                                               signer: ES256Signer(privateKeyPEM: pki.leafKeyPEM))
        let dir = try OpenSSLTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(pki.leafPublicKeyPEM.utf8).write(to: dir.appendingPathComponent("pub.pem"))
        // Many tokens, so that r or s with a high bit or a leading zero byte shows up.
        for second in 0..<12 {
            let token = try parts(factory.makeToken(now: Self.now.addingTimeInterval(Double(second))))
            try Data(token.input.utf8).write(to: dir.appendingPathComponent("input.txt"))
            try Data(TestDER.ecdsaSignature(raw: Array(token.signature))).write(to: dir.appendingPathComponent("sig.der"))
            let arguments = ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "input.txt"]
            let output = try OpenSSLTool.check(arguments, in: dir)
            #expect(output.contains("Verified OK"))
            var tampered = Array(token.signature)
            tampered[40] ^= 0x80
            try Data(TestDER.ecdsaSignature(raw: tampered)).write(to: dir.appendingPathComponent("sig.der"))
            #expect(try OpenSSLTool.run(arguments, in: dir).status != 0)
        }
    }

    @Test func lifetimeIsLimitedToAnHour() throws {
        let pki = try TestPKI.shared.get()
        let signer = try ES256Signer(privateKeyPEM: pki.leafKeyPEM)
        let longest = try AppStoreTokenFactory(keyId: "K", issuerId: "I", bundleId: "B", signer: signer, lifetimeSeconds: 3600)
        #expect(try parts(longest.makeToken(now: Self.now)).claims["exp"] == .integer(1_700_003_600))
        #expect(throws: CryptoError.self) {
            try AppStoreTokenFactory(keyId: "K", issuerId: "I", bundleId: "B", signer: signer, lifetimeSeconds: 3601)
        }
        #expect(throws: CryptoError.self) {
            try AppStoreTokenFactory(keyId: "", issuerId: "I", bundleId: "B", signer: signer)
        }
    }

    @Test func signersRejectTheWrongKeyType() throws {
        let pki = try TestPKI.shared.get()
        #expect(throws: CryptoError.self) { try ES256Signer(privateKeyPEM: pki.rsaKeyPEM) }
        #expect(throws: CryptoError.self) { try RS256Signer(privateKeyPEM: pki.leafKeyPEM) }
        #expect(throws: CryptoError.self) { try ES256Signer(privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        #expect(throws: CryptoError.self) { try ES256Signer(privateKeyFile: "/nonexistent/AuthKey.p8") }
    }
}

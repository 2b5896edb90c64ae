import Foundation
import StoreAuth
import Testing
@testable import Crypto

/// The token cache reuses a token only while at least half of its lifetime is left.
@Suite struct AppStoreTokenCacheTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func cache(lifetime: Int) throws -> AppStoreTokenCache {
        let pki = try TestPKI.shared.get()
        return AppStoreTokenCache(factory: try AppStoreTokenFactory(keyId: "ABC123DEFG", issuerId: "issuer", bundleId: "com.example.app",
                                                                     privateKeyPEM: pki.leafKeyPEM, lifetimeSeconds: lifetime))
    }

    @Test(arguments: [
        (0.0, true), (149.9, true), (150.0, false), (299.0, false), (-1.0, false),
    ])
    func reuseDependsOnTheTokensAge(secondsLater: Double, reused: Bool) throws {
        let tokens = try cache(lifetime: 300)
        let first = try tokens.token(now: Self.start)
        let later = try tokens.token(now: Self.start.addingTimeInterval(secondsLater))
        #expect((later == first) == reused)
    }

    @Test func aReusedTokenAlwaysHasHalfItsLifetimeLeft() throws {
        let tokens = try cache(lifetime: 300)
        for second in stride(from: 0, through: 900, by: 7) {
            let now = Self.start.addingTimeInterval(Double(second))
            let token = try tokens.token(now: now)
            let claims = try #require(token.split(separator: ".").dropFirst().first.flatMap { Base64.decodeURL(String($0)) })
            let exp = try #require(try JSONSerialization.jsonObject(with: claims) as? [String: Any])["exp"] as? Int
            #expect(Double(try #require(exp)) - now.timeIntervalSince1970 >= 150)
        }
    }
}

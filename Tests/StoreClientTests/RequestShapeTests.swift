import AppStore
import Crypto
import Foundation
import HTTP
import SimulatorFixtures
import Testing

/// What goes over the wire: methods, paths, queries, headers and the App Store JWT's documented claims.
@Suite struct RequestShapeTests {
    private func segments(_ jwt: String) throws -> (header: JSONValue, claims: JSONValue) {
        let parts = jwt.split(separator: ".")
        try #require(parts.count == 3)
        let header = try JSONValue.parse(try #require(Base64.decodeURL(parts[0])))
        let claims = try JSONValue.parse(try #require(Base64.decodeURL(parts[1])))
        return (header, claims)
    }

    @Test func appStoreRequestsCarryTheDocumentedTokenPathAndQuery() throws {
        let harness = try ClientHarness()
        let query = TransactionHistoryQuery(startDate: TruthFixture.now.addingTimeInterval(-400 * 86_400), productIds: ["com.example.weekly"])
        _ = try harness.apple.transactionHistory(transactionId: "2000000000000001", query: query)
        _ = try harness.apple.notificationHistory(NotificationHistoryRequest(start: TruthFixture.now.addingTimeInterval(-10 * 86_400),
                                                                            end: TruthFixture.now))
        let requests = harness.log.httpRequests
        let history = try #require(requests.first)
        #expect(history.method == "GET")
        #expect(history.path == "/inApps/v2/history/2000000000000001")
        let items = history.queryItems.map { "\($0.name)=\($0.value)" }
        #expect(items.contains("productId=com.example.weekly"))
        #expect(items.contains("sort=ASCENDING"))
        #expect(items.contains { $0.hasPrefix("startDate=") && $0.count == "startDate=".count + 13 }, "dates travel as milliseconds")
        #expect(requests.dropFirst().contains { $0.queryItems.contains { $0.name == "revision" } }, "the second page repeats the query with the revision")
        let notifications = try #require(requests.last)
        #expect(notifications.method == "POST")
        #expect(notifications.path == "/inApps/v1/notifications/history")
        #expect(notifications.header("Content-Type") == "application/json")
        let body = try JSONValue.parse(notifications.body)
        #expect(body["startDate"]?.int64Value == Int64(TruthFixture.now.addingTimeInterval(-10 * 86_400).timeIntervalSince1970 * 1000))

        for request in requests {
            let authorization = try #require(request.header("Authorization"))
            #expect(authorization.hasPrefix("Bearer "))
            let (header, claims) = try segments(String(authorization.dropFirst("Bearer ".count)))
            #expect(header["alg"]?.stringValue == "ES256")
            #expect(header["kid"]?.stringValue == "KEY123")
            #expect(header["typ"]?.stringValue == "JWT")
            #expect(claims["iss"]?.stringValue == "issuer-uuid")
            #expect(claims["aud"]?.stringValue == "appstoreconnect-v1")
            #expect(claims["bid"]?.stringValue == TruthFixture.bundleId)
            let iat = try #require(claims["iat"]?.int64Value)
            let exp = try #require(claims["exp"]?.int64Value)
            #expect(iat == Int64(TruthFixture.now.timeIntervalSince1970))
            #expect(exp > iat && exp - iat <= 3600)
        }
    }

    @Test func googleRequestsUseTheOAuthBearerAndDocumentedPaths() throws {
        let harness = try ClientHarness()
        try harness.google.acknowledge(subscriptionId: "premium_monthly", token: "token-active")
        _ = try harness.google.voidedPurchases(since: TruthFixture.now.addingTimeInterval(-7 * 86_400))
        let requests = harness.log.httpRequests
        let oauth = try #require(requests.first)
        #expect(oauth.method == "POST")
        #expect(oauth.path == "/token")
        #expect(oauth.header("Content-Type") == "application/x-www-form-urlencoded")
        let form = String(decoding: oauth.body, as: UTF8.self)
        #expect(form.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="))
        let acknowledge = requests[1]
        #expect(acknowledge.method == "POST")
        #expect(acknowledge.path == "/androidpublisher/v3/applications/\(TruthFixture.packageName)/purchases/subscriptions/premium_monthly/tokens/token-active:acknowledge")
        let voided = requests[2]
        #expect(voided.path == "/androidpublisher/v3/applications/\(TruthFixture.packageName)/purchases/voidedpurchases")
        #expect(Set(voided.queryItems.map(\.name)) == ["startTime", "maxResults", "type"])
        #expect(voided.queryItems.contains { $0.name == "type" && $0.value == "1" })
        #expect(requests.dropFirst().allSatisfy { $0.header("Authorization")?.hasPrefix("Bearer ") == true })
    }
}

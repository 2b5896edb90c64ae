import Foundation
import Testing
@testable import AppStore
@testable import BillingCore
@testable import RepairJobs

/// The row recover-notifications stores keeps the payload as Apple sent it and names the right environment for the
/// notifications without `data`.
///
/// Fixture provenance: RESCIND_CONSENT / EXTERNAL_PURCHASE_TOKEN claims shaped as Apple's App Store Server
/// Notifications documentation describes `appData` and `externalPurchaseToken`; values are invented. The JWS is
/// not signed: the row builder only reads the claims of a payload the client already verified.
@Suite struct RecoveredNotificationTests {
    static func entry(_ claims: String) throws -> AppleNotificationEntry {
        let payload = Data(claims.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let notification = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(claims.utf8))
        return AppleNotificationEntry(signedPayload: "eyJhbGciOiJFUzI1NiJ9.\(payload).c2ln", notification: notification,
                                      transaction: nil, renewalInfo: nil, sendAttempts: [])
    }

    @Test func rescindConsentTakesItsEnvironmentFromAppDataAndKeepsUnknownFields() throws {
        let row = try #require(RecoveredNotification(try Self.entry("""
            {"notificationType":"RESCIND_CONSENT","notificationUUID":"0d7a4f3e-6a55-4c5e-b8a8-1b2f0a9d2e01","version":"2.0",
             "signedDate":1767225600000,"appData":{"appAppleId":1234567890,"bundleId":"com.example.app",
             "environment":"Sandbox","signedAppTransactionInfo":"a.b.c"},"fieldAppleAddsTomorrow":{"x":[1,"y"]}}
            """)))
        #expect(row.environment == "SANDBOX")
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(row.payload.utf8)) as? [String: Any])
        let notification = try #require(stored["notification"] as? [String: Any])
        let unknown = try #require(notification["fieldAppleAddsTomorrow"] as? [String: Any])
        #expect((unknown["x"] as? [Any])?.count == 2)
        #expect((notification["appData"] as? [String: Any])?["signedAppTransactionInfo"] as? String == "a.b.c")
    }

    @Test func externalPurchaseTokenTakesItsEnvironmentFromTheIdPrefix() throws {
        func environment(_ id: String) throws -> String? {
            try RecoveredNotification(Self.entry("""
                {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"UNREPORTED","notificationUUID":"9a3f6c2b-7d1e-4b8a-a0f5-6c2e1d3b4a55",
                 "version":"2.0","signedDate":1767225600000,"externalPurchaseToken":{"externalPurchaseId":"\(id)",
                 "tokenCreationDate":1767139200000,"appAppleId":1234567890,"bundleId":"com.example.app"}}
                """))?.environment
        }
        #expect(try environment("SANDBOX_b2d3d8a4") == "SANDBOX")
        #expect(try environment("b2d3d8a4") == "PRODUCTION")
    }
}

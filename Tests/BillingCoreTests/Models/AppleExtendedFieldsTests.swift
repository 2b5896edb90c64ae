import Foundation
import Testing
@testable import BillingCore

/// Fields Apple added to its payloads (commitments, billing plans, Advanced Commerce, consumption requests) and
/// the two notifications without `data` (RESCIND_CONSENT, EXTERNAL_PURCHASE_TOKEN) decode and are kept.
///
/// Fixture provenance: written for these tests, field for field as Apple's App Store Server API / Notifications
/// documentation names them (JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload, TransactionCommitmentInfo,
/// RenewalCommitmentInfo, AdvancedCommerceTransactionInfo, data.consumptionRequestReason, appData,
/// externalPurchaseToken); values are invented.
@Suite("Apple payloads keep their newer fields")
struct AppleExtendedFieldsTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test("A transaction keeps billingPlanType, commitmentInfo and advancedCommerceInfo")
    func transaction() throws {
        let transaction = try Self.decode(JWSTransactionDecodedPayload.self, """
            {"transactionId":"2000000912345678","originalTransactionId":"2000000900000001","bundleId":"com.example.app",
             "productId":"pro.annual.monthly","type":"Auto-Renewable Subscription","environment":"Production",
             "price":9990,"currency":"USD","signedDate":1767225600000,"billingPlanType":"MONTHLY",
             "commitmentInfo":{"billingPeriodNumber":3,"commitmentExpiresDate":1790812800000,"commitmentPrice":99990,
                               "totalBillingPeriods":12},
             "advancedCommerceInfo":{"requestReferenceId":"f3c0e1a2","period":"P1M","taxCode":"C003-00-2",
                                     "estimatedTax":725,"taxRate":"0.0725","taxExclusivePrice":9990,
                                     "descriptors":{"displayName":"Pro","description":"Pro plan"},
                                     "items":[{"SKU":"pro.seat","price":9990,"displayName":"Seat","description":"One seat"}]},
             "fieldAppleAddsTomorrow":true}
            """)
        #expect(transaction.billingPlanType == "MONTHLY")
        #expect(transaction.commitmentInfo?.billingPeriodNumber == 3)
        #expect(transaction.commitmentInfo?.totalBillingPeriods == 12)
        #expect(transaction.commitmentInfo?.commitmentPrice == 99_990)
        #expect(transaction.commitmentInfo?.commitmentExpiresDate == AppleTimestamp(milliseconds: 1_790_812_800_000))
        #expect(transaction.advancedCommerceInfo?["taxCode"] == .string("C003-00-2"))
        #expect(transaction.advancedCommerceInfo?["items"] == .array([.object([
            "SKU": .string("pro.seat"), "price": .integer(9990), "displayName": .string("Seat"), "description": .string("One seat"),
        ])]))
    }

    @Test("A renewal info keeps renewalBillingPlanType, commitmentInfo and advancedCommerceInfo")
    func renewalInfo() throws {
        let renewal = try Self.decode(JWSRenewalInfoDecodedPayload.self, """
            {"originalTransactionId":"2000000900000001","autoRenewProductId":"pro.annual.monthly","productId":"pro.annual.monthly",
             "autoRenewStatus":1,"environment":"Production","signedDate":1767225600000,"renewalBillingPlanType":"MONTHLY",
             "commitmentInfo":{"commitmentAutoRenewProductId":"pro.annual.monthly","commitmentAutoRenewStatus":1,
                               "commitmentRenewalBillingPlanType":"BILLED_UPFRONT","commitmentRenewalDate":1790812800000,
                               "commitmentRenewalPrice":99990},
             "advancedCommerceInfo":{"consistencyToken":"c1","period":"P1M","requestReferenceId":"f3c0e1a2"}}
            """)
        #expect(renewal.renewalBillingPlanType == "MONTHLY")
        #expect(renewal.commitmentInfo?.commitmentRenewalBillingPlanType == "BILLED_UPFRONT")
        #expect(renewal.commitmentInfo?.commitmentAutoRenewStatus == 1)
        #expect(renewal.commitmentInfo?.commitmentRenewalPrice == 99_990)
        #expect(renewal.advancedCommerceInfo?["consistencyToken"] == .string("c1"))
    }

    @Test("A CONSUMPTION_REQUEST keeps its consumptionRequestReason")
    func consumptionRequest() throws {
        let notification = try Self.decode(ResponseBodyV2DecodedPayload.self, """
            {"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"5e5c7d1e-0f0a-4a47-9d53-3f3f0b0f4c11","version":"2.0",
             "signedDate":1767225600000,"data":{"appAppleId":1234567890,"bundleId":"com.example.app","environment":"Production",
             "signedTransactionInfo":"x.y.z","consumptionRequestReason":"UNINTENDED_PURCHASE"}}
            """)
        #expect(notification.data?.consumptionRequestReason == "UNINTENDED_PURCHASE")
    }

    @Test("RESCIND_CONSENT decodes its appData")
    func rescindConsent() throws {
        let notification = try Self.decode(ResponseBodyV2DecodedPayload.self, """
            {"notificationType":"RESCIND_CONSENT","notificationUUID":"0d7a4f3e-6a55-4c5e-b8a8-1b2f0a9d2e01","version":"2.0",
             "signedDate":1767225600000,"appData":{"appAppleId":1234567890,"bundleId":"com.example.app",
             "environment":"Sandbox","signedAppTransactionInfo":"a.b.c"}}
            """)
        #expect(notification.notificationTypeValue == .rescindConsent)
        #expect(notification.data == nil)
        #expect(notification.appData?.bundleId == "com.example.app")
        #expect(notification.appData?.appAppleId == 1_234_567_890)
        #expect(notification.appData?.environment == "Sandbox")
        #expect(notification.appData?.signedAppTransactionInfo == "a.b.c")
    }

    @Test("EXTERNAL_PURCHASE_TOKEN decodes its token; the SANDBOX_ prefix names the environment")
    func externalPurchaseToken() throws {
        let notification = try Self.decode(ResponseBodyV2DecodedPayload.self, """
            {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"UNREPORTED","notificationUUID":"9a3f6c2b-7d1e-4b8a-a0f5-6c2e1d3b4a55",
             "version":"2.0","signedDate":1767225600000,"externalPurchaseToken":{"externalPurchaseId":"SANDBOX_b2d3d8a4-3c1f",
             "tokenCreationDate":1767139200000,"appAppleId":1234567890,"bundleId":"com.example.app"}}
            """)
        let token = try #require(notification.externalPurchaseToken)
        #expect(notification.notificationTypeValue == .externalPurchaseToken)
        #expect(token.externalPurchaseId == "SANDBOX_b2d3d8a4-3c1f")
        #expect(token.tokenCreationDate == AppleTimestamp(milliseconds: 1_767_139_200_000))
        #expect(token.bundleId == "com.example.app" && token.appAppleId == 1_234_567_890)
        #expect(token.environmentValue == .sandbox)
        var production = token
        production.externalPurchaseId = "b2d3d8a4-3c1f"
        #expect(production.environmentValue == .production)
    }
}

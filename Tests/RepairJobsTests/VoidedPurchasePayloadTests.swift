import Foundation
import Testing
@testable import BillingCore
@testable import RepairJobs

/// The voided purchase stored in the history rows is typed JSON with sorted keys: every field Google sent, the
/// times as strings as voidedpurchases.list sends them, never a silent `{}`.
@Suite struct VoidedPurchasePayloadTests {
    @Test func everyFieldIsKeptWithSortedKeys() throws {
        // A voidedpurchases.list entry (fields as in the Android Publisher v3 VoidedPurchase reference).
        let voided = try JSONDecoder().decode(VoidedPurchase.self, from: Data("""
            {"kind": "androidpublisher#voidedPurchase", "purchaseToken": "token-1", "orderId": "GPA.3376-6603-2291-45508..2",
             "purchaseTimeMillis": "1767225600000", "voidedTimeMillis": "1767312000000", "voidedSource": 2, "voidedReason": 7,
             "voidedQuantity": 1}
            """.utf8))
        let text = String(decoding: try SweepVoidedProcessor.payload(voided), as: UTF8.self)
        #expect(text == #"{"kind":"androidpublisher#voidedPurchase","orderId":"GPA.3376-6603-2291-45508..2","# +
                #""purchaseTimeMillis":"1767225600000","voidedOrderId":"GPA.3376-6603-2291-45508..2","voidedQuantity":1,"# +
                #""voidedReason":7,"voidedSource":2,"voidedTimeMillis":"1767312000000"}"#)
    }

    @Test func absentFieldsAreLeftOutAndTheKindDefaults() throws {
        let voided = VoidedPurchase(purchaseToken: "token-2", orderId: "GPA.1234-5678-9012-34567", voidedTimeMillis: 1_767_312_000_000)
        let object = try #require(try JSONSerialization.jsonObject(with: SweepVoidedProcessor.payload(voided)) as? [String: Any])
        #expect(object["kind"] as? String == "androidpublisher#voidedPurchase")
        #expect(object["voidedTimeMillis"] as? String == "1767312000000")
        #expect(object["purchaseTimeMillis"] == nil)
        #expect(object.count > 1, "never an empty object")
    }
}

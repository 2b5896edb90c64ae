import Crypto
import Foundation
import HTTP
import Testing
@testable import StoreSimulator

@Suite("Apple refund history and order lookup")
struct AppleLookupTests {
    @Test("Refund history lists the revoked transactions, oldest revocation first")
    func refundHistory() throws {
        let harness = try SimulatorHarness()
        let response = harness.send("GET", "/inApps/v2/refund/lookup/2000000000000003")
        #expect(response.status == 200)
        let body = response.json
        let ids = (body["signedTransactions"]?.arrayValue ?? []).compactMap { jwsPayload($0.stringValue ?? "").text("transactionId") }
        #expect(ids == ["2000000000000011", "2000000000000025"])
        #expect(body["hasMore"] == .bool(false))
        #expect(body["revision"]?.stringValue != nil)
        #expect(harness.send("GET", "/inApps/v2/refund/lookup/2000000000000003?revision=x").appleErrorCode == 4_000_005)
        let none = harness.send("GET", "/inApps/v2/refund/lookup/1000000000000001").json
        #expect(none["signedTransactions"]?.arrayValue?.isEmpty == true)
    }

    @Test("Look Up Order ID uses orderId when present, else webOrderLineItemId", arguments: [
        ("MK5TTTVWJH", Int64(0), ["2000000000000008"]),
        ("1000000050000001", 0, ["1000000000000001"]),
        ("NOSUCHORDER", 1, []),
    ])
    func orderLookup(orderId: String, status: Int64, ids: [String]) throws {
        let harness = try SimulatorHarness()
        let body = harness.send("GET", "/inApps/v1/lookup/\(orderId)").json
        #expect(body["status"] == .integer(status))
        let signed = body["signedTransactions"]?.arrayValue ?? []
        #expect(signed.compactMap { jwsPayload($0.stringValue ?? "").text("transactionId") } == ids)
        let verifier = try harness.verifier()
        for jws in signed { #expect(verifier.verify(jws.stringValue ?? "").verified != nil) }
    }
}

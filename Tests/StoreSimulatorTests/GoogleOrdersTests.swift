import Crypto
import Foundation
import HTTP
import SimulatorFixtures
import Testing
@testable import StoreSimulator

@Suite("Google Play Orders API: orders.get and orders.batchGet from the truth")
struct GoogleOrdersTests {
    static let base = "/androidpublisher/v3/applications/\(TruthFixture.packageName)/orders"

    @Test("orders.get answers the order with its history; unknown orders, other packages and gone tokens are 404", arguments: [
        ("\(base)/GPA.1111-2222-3333-44444..0", 200, nil),
        ("\(base)/GPA.0000-0000-0000-00000", 404, "orderNotFound"),
        ("\(base)/GPA.5555-0000-0000-00000", 404, "orderNotFound"),
        ("/androidpublisher/v3/applications/com.other.app/orders/GPA.1111-2222-3333-44444", 404, "orderNotFound"),
    ] as [(String, Int, String?)])
    func get(url: String, status: Int, reason: String?) throws {
        let response = try SimulatorHarness().send("GET", url)
        #expect(response.status == status)
        if let reason {
            #expect(response.googleReason == reason)
        } else {
            #expect(response.json["state"] == .string("PARTIALLY_REFUNDED"))
            let refunds = response.json["orderHistory"]?["partialRefundEvents"]?.arrayValue ?? []
            #expect(refunds.first?["refundDetails"]?["total"]?["units"] == .string("4"))
        }
    }

    @Test("orders.batchGet answers every order asked for, or fails the whole request")
    func batchGet() throws {
        let harness = try SimulatorHarness()
        let both = harness.send("GET", "\(Self.base):batchGet?orderIds=GPA.1111-2222-3333-44444&orderIds=GPA.1111-2222-3333-44444..0")
        #expect(both.status == 200)
        #expect((both.json["orders"]?.arrayValue ?? []).compactMap { $0.text("orderId") }
                == ["GPA.1111-2222-3333-44444", "GPA.1111-2222-3333-44444..0"])
        let unknown = harness.send("GET", "\(Self.base):batchGet?orderIds=GPA.1111-2222-3333-44444&orderIds=GPA.0000-0000-0000-00000")
        #expect(unknown.status == 404)
        #expect(harness.send("GET", "\(Self.base):batchGet").status == 400, "at least one order ID")
        #expect(harness.send("GET", "\(Self.base):batchGet?orderIds=GPA.1111-2222-3333-44444&orderIds=GPA.1111-2222-3333-44444").status == 400,
                "order IDs must be distinct")
    }
}

import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import Testing
@testable import StoreSimulator

@Suite("Google Play subscriptionsv2, acknowledge and voided purchases")
struct GooglePlayTests {
    static let base = "/androidpublisher/v3/applications/\(TruthFixture.packageName)/purchases"

    @Test("subscriptionsv2.get answers the truth, 404 and 410", arguments: [
        ("\(base)/subscriptionsv2/tokens/token-active", 200, nil),
        ("\(base)/subscriptionsv2/tokens/token-pending", 200, nil),
        ("\(base)/subscriptionsv2/tokens/token-expired", 410, "subscriptionPurchaseNoLongerAvailable"),
        ("\(base)/subscriptionsv2/tokens/no-such-token", 404, "purchaseTokenNotFound"),
        ("/androidpublisher/v3/applications/com.other.app/purchases/subscriptionsv2/tokens/token-active", 404, "purchaseTokenNotFound"),
    ] as [(String, Int, String?)])
    func get(url: String, status: Int, reason: String?) throws {
        let response = try SimulatorHarness().send("GET", url)
        #expect(response.status == status)
        if let reason {
            #expect(response.googleReason == reason)
            #expect(response.json["error"]?["code"] == .integer(Int64(status)))
        } else {
            #expect(response.json["kind"] == .string("androidpublisher#subscriptionPurchaseV2"))
        }
    }

    @Test("Acknowledge sets ACKNOWLEDGED, is idempotent, and refuses PENDING and wrong products")
    func acknowledge() throws {
        let harness = try SimulatorHarness()
        let url = "\(Self.base)/subscriptions/premium_monthly/tokens/token-active:acknowledge"
        let state = { harness.send("GET", "\(Self.base)/subscriptionsv2/tokens/token-active").json["acknowledgementState"] }
        #expect(state() == .string("ACKNOWLEDGEMENT_STATE_PENDING"))
        let response = harness.send("POST", url)
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(state() == .string("ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"))
        #expect(harness.send("POST", url, body: Data(#"{"developerPayload":"x"}"#.utf8)).status == 200)
        let pending = harness.send("POST", "\(Self.base)/subscriptions/premium_monthly/tokens/token-pending:acknowledge")
        #expect(pending.status == 400)
        #expect(pending.json["error"]?["status"] == .string("FAILED_PRECONDITION"))
        let pendingState = harness.simulator.currentTruth.google.subscriptions[1].purchase["acknowledgementState"]
        #expect(pendingState == .string("ACKNOWLEDGEMENT_STATE_PENDING"))
        #expect(harness.send("POST", "\(Self.base)/subscriptions/other_product/tokens/token-active:acknowledge").status == 400)
        #expect(harness.send("POST", "\(Self.base)/subscriptions/premium_monthly/tokens/nothing:acknowledge").status == 404)
        #expect(harness.send("POST", "\(Self.base)/subscriptions/premium_monthly/tokens/token-expired:acknowledge").status == 410)
    }

    @Test("voidedpurchases.list windows, types and errors", arguments: [
        ("type=1", 200, 5), ("", 200, 2), ("type=1&startTime=\(TruthFixture.nowMs - 3 * TruthFixture.day)", 200, 2),
        ("type=1&endTime=\(TruthFixture.nowMs - 8 * TruthFixture.day)", 200, 2),
        ("startTime=\(TruthFixture.nowMs - 31 * TruthFixture.day)", 400, 0), ("endTime=\(TruthFixture.nowMs + 1000)", 400, 0),
        ("maxResults=1001", 400, 0), ("type=2", 400, 0), ("token=garbage", 400, 0),
    ])
    func voided(query: String, status: Int, count: Int) throws {
        let response = try SimulatorHarness().send("GET", "\(Self.base)/voidedpurchases?\(query)")
        #expect(response.status == status)
        if status == 200 {
            #expect((response.json["voidedPurchases"]?.arrayValue ?? []).count == count)
        } else {
            #expect(response.json["error"]?["status"] == .string("INVALID_ARGUMENT"))
        }
    }

    @Test("voidedpurchases.list pages with tokenPagination")
    func voidedPages() throws {
        let harness = try SimulatorHarness()
        var orders: [String] = []
        var url = "\(Self.base)/voidedpurchases?type=1&maxResults=2"
        var pages = 0
        while pages < 10 {
            let body = harness.send("GET", url).json
            pages += 1
            orders += (body["voidedPurchases"]?.arrayValue ?? []).compactMap { $0.text("orderId") }
            guard let next = body["tokenPagination"]?["nextPageToken"]?.stringValue else { break }
            url = "\(Self.base)/voidedpurchases?type=1&maxResults=2&token=\(next)"
        }
        #expect(pages == 3)
        #expect(orders == (1...5).map { "GPA.9999-0000-0000-0000\($0)" })
    }
}

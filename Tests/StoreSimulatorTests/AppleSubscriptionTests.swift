import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import Testing
@testable import StoreSimulator

@Suite("Apple subscriptions, transactions and history")
struct AppleSubscriptionTests {
    @Test("Get All Subscription Statuses finds the subscription from any of its transaction ids",
          arguments: ["1000000000000001", "1000000000000002", "1000000000000003"])
    func statusesFromAnyTransaction(id: String) throws {
        let harness = try SimulatorHarness()
        let response = harness.send("GET", "/inApps/v1/subscriptions/\(id)")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let body = response.json
        #expect(body["bundleId"] == .string(TruthFixture.bundleId))
        #expect(body["appAppleId"] == .integer(TruthFixture.appAppleId))
        #expect(body["environment"] == .string("Production"))
        let group = try #require(body["data"]?.arrayValue?.first)
        #expect(group["subscriptionGroupIdentifier"] == .string("21000001"))
        let last = try #require(group["lastTransactions"]?.arrayValue?.first)
        #expect(last["status"] == .integer(1))
        #expect(last["originalTransactionId"] == .string("1000000000000001"))
        let verifier = try harness.verifier()
        let signedTransaction = try #require(last["signedTransactionInfo"]?.stringValue)
        let transaction = try #require(verifier.verify(signedTransaction).value)
        #expect(transaction == TruthFixture.subscriptionA.transactions[2])
        let signedRenewal = try #require(last["signedRenewalInfo"]?.stringValue)
        let renewal = try #require(verifier.verify(signedRenewal).value)
        #expect(renewal == TruthFixture.subscriptionA.renewalInfo)
    }

    @Test("The status filter keeps or drops the subscription", arguments: [
        ("status=1", 1), ("status=2", 0), ("status=2&status=1", 1), ("status=5", 0),
    ])
    func statusFilter(query: String, groups: Int) throws {
        let response = try SimulatorHarness().send("GET", "/inApps/v1/subscriptions/1000000000000001?\(query)")
        #expect(response.status == 200)
        #expect(response.json["data"]?.arrayValue?.count == groups)
    }

    @Test("Errors use Apple's codes", arguments: [
        ("/inApps/v1/subscriptions/9999999999", 404, Int64(4_040_010)),
        ("/inApps/v1/subscriptions/not-a-number", 400, 4_000_006),
        ("/inApps/v1/subscriptions/1000000000000001?status=6", 400, 4_000_031),
        ("/inApps/v1/transactions/9999999999", 404, 4_040_010),
        ("/inApps/v1/transactions/abc", 400, 4_000_006),
        ("/inApps/v2/history/9999999999", 404, 4_040_010),
        ("/inApps/v2/history/2000000000000001?revision=bogus", 400, 4_000_005),
        ("/inApps/v2/history/2000000000000001?sort=SIDEWAYS", 400, 4_000_021),
        ("/inApps/v2/history/2000000000000001?productType=GADGET", 400, 4_000_022),
        ("/inApps/v2/history/2000000000000001?revoked=maybe", 400, 4_000_030),
        ("/inApps/v2/history/2000000000000001?startDate=5&endDate=5", 400, 4_000_013),
        ("/inApps/v2/refund/lookup/42", 404, 4_040_010),
    ])
    func appleErrors(url: String, status: Int, code: Int64) throws {
        let response = try SimulatorHarness().send("GET", url)
        #expect(response.status == status)
        #expect(response.appleErrorCode == code)
        #expect(response.json["errorMessage"]?.stringValue?.isEmpty == false)
    }

    @Test("Get Transaction Info signs exactly the requested transaction")
    func transactionInfo() throws {
        let harness = try SimulatorHarness()
        let response = harness.send("GET", "/inApps/v1/transactions/2000000000000008")
        #expect(response.status == 200)
        let jws = try #require(response.json["signedTransactionInfo"]?.stringValue)
        #expect(try harness.verifier().verify(jws).value == TruthFixture.subscriptionB.transactions[7])
    }

    @Test("History pages 20 at a time with a revision, ascending and descending")
    func historyPagination() throws {
        let harness = try SimulatorHarness()
        for sort in ["ASCENDING", "DESCENDING"] {
            var ids: [String] = []
            var url = "/inApps/v2/history/2000000000000005?sort=\(sort)"
            var pages = 0
            while true {
                let body = harness.send("GET", url).json
                pages += 1
                ids += (body["signedTransactions"]?.arrayValue ?? []).compactMap { jwsPayload($0.stringValue ?? "").text("transactionId") }
                #expect(body["bundleId"] == .string(TruthFixture.bundleId))
                guard body["hasMore"] == .bool(true), let revision = body["revision"]?.stringValue else { break }
                url = "/inApps/v2/history/2000000000000005?sort=\(sort)&revision=\(revision)"
            }
            let expected = TruthFixture.subscriptionB.transactions.compactMap { $0.text("transactionId") }
            #expect(pages == 2)
            #expect(ids == (sort == "ASCENDING" ? expected : expected.reversed()))
        }
    }

    @Test("History filters", arguments: [
        ("revoked=true", 2), ("revoked=false", 23), ("productId=com.example.weekly", 25), ("productId=other", 0),
        ("productType=AUTO_RENEWABLE", 25), ("productType=CONSUMABLE", 0), ("inAppOwnershipType=FAMILY_SHARED", 0),
        ("subscriptionGroupIdentifier=21000002", 25),
        ("startDate=\(TruthFixture.nowMs - 200 * TruthFixture.day + 7 * TruthFixture.day)&endDate=\(TruthFixture.nowMs - 200 * TruthFixture.day + 21 * TruthFixture.day)", 2),
    ])
    func historyFilters(query: String, count: Int) throws {
        let harness = try SimulatorHarness()
        var total = 0
        var url = "/inApps/v2/history/2000000000000001?\(query)"
        while true {
            let body = harness.send("GET", url).json
            total += body["signedTransactions"]?.arrayValue?.count ?? 0
            guard body["hasMore"] == .bool(true), let revision = body["revision"]?.stringValue else { break }
            url = "/inApps/v2/history/2000000000000001?\(query)&revision=\(revision)"
        }
        #expect(total == count)
    }

    @Test("A revision made for one query is refused by another")
    func revisionBoundToQuery() throws {
        let harness = try SimulatorHarness()
        let revision = try #require(harness.send("GET", "/inApps/v2/history/2000000000000001").json["revision"]?.stringValue)
        let response = harness.send("GET", "/inApps/v2/history/2000000000000001?sort=DESCENDING&revision=\(revision)")
        #expect(response.appleErrorCode == 4_000_005)
    }

    @Test("Unknown paths are 404 and wrong methods 405")
    func routing() throws {
        let harness = try SimulatorHarness()
        #expect(harness.send("GET", "/inApps/v9/nothing").status == 404)
        #expect(harness.send("POST", "/inApps/v1/subscriptions/1000000000000001").status == 405)
        #expect(harness.send("GET", "/inApps/v1/notifications/history").status == 405)
        #expect(harness.simulator.counters.count(.unknown, outcome: "404") == 1)
    }
}

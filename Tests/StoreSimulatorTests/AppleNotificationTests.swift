import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import Testing
@testable import StoreSimulator

@Suite("Apple notification history and test notifications")
struct AppleNotificationTests {
    static let start = TruthFixture.nowMs - 179 * TruthFixture.day
    static let url = "/inApps/v1/notifications/history"

    /// Every page of one query: signed payloads in order, and the page count.
    static func allPages(_ harness: SimulatorHarness, _ body: JSONValue) -> (payloads: [String], pages: Int) {
        var payloads: [String] = []
        var pages = 0
        var token: String?
        repeat {
            let response = harness.post(url + (token.map { "?paginationToken=\($0)" } ?? ""), json: body)
            pages += 1
            let page = response.json
            payloads += (page["notificationHistory"]?.arrayValue ?? []).compactMap { $0["signedPayload"]?.stringValue }
            token = page["hasMore"] == .bool(true) ? page["paginationToken"]?.stringValue : nil
            if page["hasMore"] == .bool(false) { #expect(page["paginationToken"] == nil) }
        } while token != nil && pages < 10
        return (payloads, pages)
    }

    @Test("Each environment has its own history: production notifications are not served by a sandbox app")
    func environmentsDoNotMix() throws {
        let body: JSONValue = .object(["startDate": .integer(TruthFixture.nowMs - 29 * TruthFixture.day), "endDate": .integer(TruthFixture.nowMs)])
        let production = Self.allPages(try SimulatorHarness(), body).payloads
        #expect(!production.isEmpty)
        let sandbox = Self.allPages(try SimulatorHarness(environment: "Sandbox"), body).payloads
        #expect(sandbox.isEmpty, "the fixture's notifications are all Production")
    }

    @Test("45 notifications in the window come back in 3 pages, oldest first, each verifiable")
    func pagination() throws {
        let harness = try SimulatorHarness()
        let body: JSONValue = .object(["startDate": .integer(Self.start), "endDate": .integer(TruthFixture.nowMs)])
        let first = harness.post(Self.url, json: body).json
        #expect(first["notificationHistory"]?.arrayValue?.count == 20)
        #expect(first["hasMore"] == .bool(true))
        let (payloads, pages) = Self.allPages(harness, body)
        #expect(pages == 3)
        #expect(payloads.count == 45)
        let verifier = try harness.verifier()
        let decoded = try payloads.map { try #require(verifier.verify($0).value) }
        let dates = decoded.compactMap { $0["signedDate"]?.int64Value }
        #expect(dates == dates.sorted())
        #expect(dates.first == TruthFixture.nowMs - 100 * TruthFixture.day)
        let inner = try #require(decoded[0]["data"]?["signedTransactionInfo"]?.stringValue)
        #expect(verifier.verify(inner).value == TruthFixture.subscriptionA.transactions[0])
        #expect(decoded[0]["data"]?["signedRenewalInfo"]?.stringValue != nil)
    }

    @Test("Filters", arguments: [
        (JSONValue.object(["notificationType": .string("SUBSCRIBED")]), 15),
        (.object(["notificationType": .string("DID_RENEW")]), 30),
        (.object(["onlyFailures": .bool(true)]), 4),
        (.object(["transactionId": .string("1000000000000002")]), 23),
        (.object(["transactionId": .string("2000000000000009")]), 22),
    ])
    func filters(extra: JSONValue, count: Int) throws {
        var members = extra.members ?? [:]
        members["startDate"] = .integer(Self.start)
        members["endDate"] = .integer(TruthFixture.nowMs)
        #expect(Self.allPages(try SimulatorHarness(), .object(members)).payloads.count == count)
    }

    @Test("Window and argument errors", arguments: [
        ("Production", TruthFixture.nowMs - 181 * TruthFixture.day, TruthFixture.nowMs, Int64(4_000_012)),
        ("Sandbox", TruthFixture.nowMs - 31 * TruthFixture.day, TruthFixture.nowMs, 4_000_012),
        ("Production", TruthFixture.nowMs, TruthFixture.nowMs - 1, 4_000_013),
    ])
    func windowErrors(environment: String, start: Int64, end: Int64, code: Int64) throws {
        let harness = try SimulatorHarness(environment: environment)
        let response = harness.post(Self.url, json: .object(["startDate": .integer(start), "endDate": .integer(end)]))
        #expect(response.status == 400)
        #expect(response.appleErrorCode == code)
    }

    @Test("Malformed bodies and tokens")
    func malformed() throws {
        let harness = try SimulatorHarness()
        #expect(harness.send("POST", Self.url, body: Data("{".utf8)).appleErrorCode == 4_000_000)
        #expect(harness.post(Self.url, json: .object(["endDate": .integer(TruthFixture.nowMs)])).appleErrorCode == 4_000_015)
        #expect(harness.post(Self.url, json: .object(["startDate": .integer(Self.start)])).appleErrorCode == 4_000_016)
        let body: JSONValue = .object(["startDate": .integer(Self.start), "endDate": .integer(TruthFixture.nowMs)])
        #expect(harness.post(Self.url + "?paginationToken=nope", json: body).appleErrorCode == 4_000_014)
        let both = body.setting("transactionId", .string("1000000000000001")).setting("notificationType", .string("TEST"))
        #expect(harness.post(Self.url, json: both).appleErrorCode == 4_000_019)
    }

    @Test("A test notification request creates a TEST notification the status call and history serve")
    func testNotification() throws {
        let harness = try SimulatorHarness()
        let before = harness.simulator.currentTruth.apple.notifications.count
        let created = harness.send("POST", "/inApps/v1/notifications/test")
        #expect(created.status == 200)
        let token = try #require(created.json["testNotificationToken"]?.stringValue)
        #expect(harness.simulator.currentTruth.apple.notifications.count == before + 1)
        let status = harness.send("GET", "/inApps/v1/notifications/test/\(token)").json
        let signedPayload = try #require(status["signedPayload"]?.stringValue)
        let payload = try #require(try harness.verifier().verify(signedPayload).value)
        #expect(payload["notificationType"] == .string("TEST"))
        #expect(payload["data"]?["bundleId"] == .string(TruthFixture.bundleId))
        #expect(status["sendAttempts"]?.arrayValue?.first?["sendAttemptResult"] == .string("SUCCESS"))
        let history = Self.allPages(harness, .object(["startDate": .integer(Self.start), "endDate": .integer(TruthFixture.nowMs + 1),
                                                      "notificationType": .string("TEST")]))
        #expect(history.payloads.count == 1)
        #expect(harness.send("GET", "/inApps/v1/notifications/test/unknown").appleErrorCode == 4_040_008)
    }
}

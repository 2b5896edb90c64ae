import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import HTTPServer
import Testing
@testable import StoreSimulator

@Suite("Over the wire: LoopbackHTTPServer + HTTPClient")
struct OverTheWireTests {
    /// Runs `body` against a served harness, stopping the server afterwards.
    static func served(faults: FaultConfiguration = .none, _ body: (SimulatorHarness, String, HTTPClient) throws -> Void) throws {
        let harness = try SimulatorHarness(faults: faults)
        let runner = try SimulatorRunner(simulator: harness.simulator)
        try runner.start()
        defer { runner.stop() }
        try body(harness, runner.baseURL, HTTPClient(configuration: HTTPClientConfiguration(timeouts: HTTPTimeouts(connect: 2, total: 5))))
    }

    @Test("Apple and Google calls round-trip, signed payloads verify, state changes stick")
    func roundTrip() throws {
        try Self.served { harness, base, client in
            let statuses = try client.send(HTTPRequest(method: "GET", url: "\(base)/inApps/v1/subscriptions/1000000000000002"))
            #expect(statuses.status == 200)
            let jws = statuses.json["data"]?.arrayValue?.first?["lastTransactions"]?.arrayValue?.first?["signedTransactionInfo"]?.stringValue
            #expect(try harness.verifier().verify(jws ?? "").value == TruthFixture.subscriptionA.transactions[2])
            let history = try client.send(HTTPRequest(
                method: "POST", url: "\(base)/inApps/v1/notifications/history", headers: [("Content-Type", "application/json")],
                body: Responses.encode(.object(["startDate": .integer(AppleNotificationTests.start), "endDate": .integer(TruthFixture.nowMs)]))))
            #expect(history.json["notificationHistory"]?.arrayValue?.count == 20)
            let ack = try client.send(HTTPRequest(
                method: "POST", url: "\(base)\(GooglePlayTests.base)/subscriptions/premium_monthly/tokens/token-active:acknowledge"))
            #expect(ack.status == 200)
            #expect(harness.simulator.currentTruth.google.subscriptions[0].purchase["acknowledgementState"]
                == .string("ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"))
            let gone = try client.send(HTTPRequest(method: "GET", url: "\(base)\(GooglePlayTests.base)/subscriptionsv2/tokens/token-expired"))
            #expect(gone.status == 410)
        }
    }

    @Test("Transport faults reach the client as HTTP errors", arguments: [
        ("reset", "connection"), ("truncated", "truncated"), ("timeout", "timeout"),
    ])
    func transportFaults(kind: String, expected: String) throws {
        try Self.served(faults: try FaultConfiguration.parse("\(kind)=1,timeout-seconds=1")) { _, base, client in
            let request = HTTPRequest(method: "GET", url: "\(base)/inApps/v1/subscriptions/1000000000000001")
            #expect {
                _ = try client.send(request, timeout: HTTPTimeouts(connect: 2, total: 0.3))
            } throws: { error in
                switch (error as? HTTPError, expected) {
                case (.connectionFailed?, "connection"), (.truncatedBody?, "truncated"), (.timeout?, "timeout"): return true
                default: return false
                }
            }
        }
    }
}

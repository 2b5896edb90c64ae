import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import HTTPServer
import Testing
@testable import StoreSimulator

@Suite("Fault injection")
struct FaultTests {
    static let statuses = "/inApps/v1/subscriptions/1000000000000001"
    /// The `oversized` size the tests configure (small, so 2,000 requests stay cheap).
    static let oversizedBytes = 64 << 10

    /// What one request's action looked like; `known` remembers verdicts of JWS strings already verified.
    static func classify(_ action: HTTPServerAction, verifier: AppleJWSVerifier, known: inout [String: String]) -> String {
        switch action {
        case .resetConnection: return "reset"
        case .delay: return "timeout"
        case .truncateBody: return "truncated"
        case let .respond(response):
            if response.status == 500 { return "5xx" }
            if response.status == 429 { return "429" }
            if response.body.count >= oversizedBytes { return "oversized" }
            if response.header("Content-Type") == "text/html" { return "content-type" }
            let last = response.json["data"]?.arrayValue?.first?["lastTransactions"]?.arrayValue?.first
            let jws = last?["signedTransactionInfo"]?.stringValue ?? ""
            if let verdict = known[jws] { return verdict }
            let verdict: String
            switch verifier.verify(jws) {
            case .signatureFailure: verdict = "signature"
            case .wrongApp: verdict = "bundle"
            case .invalidCertificate(.notValidAtSignedDate): verdict = "expired"
            case let .verified(verified):
                verdict = verified.value == TruthFixture.subscriptionA.transactions[2] ? "ok" : "stale"
            default: verdict = "unexpected"
            }
            known[jws] = verdict
            return verdict
        }
    }

    static func classify(_ action: HTTPServerAction, verifier: AppleJWSVerifier) -> String {
        var known: [String: String] = [:]
        return classify(action, verifier: verifier, known: &known)
    }

    @Test("Each kind appears at its configured rate over 2,000 requests, and is counted")
    func rates() throws {
        let rates = Dictionary(uniqueKeysWithValues: TransportFault.allCases.map { ($0, 0.05) })
        var faults = try FaultConfiguration(rates: rates, timeoutSeconds: 40)
        faults.stormSeconds = 0   // a storm of one request, so each request draws afresh
        faults.oversizedBytes = Self.oversizedBytes
        let harness = try SimulatorHarness(faults: faults, seed: 2026)
        let verifier = try harness.verifier()
        var seen: [String: Int] = [:]
        var known: [String: String] = [:]
        for _ in 0..<2000 {
            seen[Self.classify(harness.action("GET", Self.statuses), verifier: verifier, known: &known), default: 0] += 1
        }
        #expect(seen["unexpected"] == nil)
        let counters = harness.simulator.counters
        for kind in TransportFault.allCases {
            let count = seen[kind.rawValue] ?? 0
            #expect((55...145).contains(count), "\(kind.rawValue): \(count) of 2000 at 5 %")
            #expect(counters.faults[kind] == count, "\(kind.rawValue) counted")
        }
        #expect((800...1000).contains(seen["ok"] ?? 0))
        #expect(counters.count(.appleSubscriptionStatuses, outcome: "reset") == seen["reset"])
    }

    @Test("The same seed reproduces the same faults; another seed does not")
    func determinism() throws {
        let faults = try FaultConfiguration.parse("5xx=0.1,reset=0.1,timeout=0.1,timeout-seconds=5")
        func run(seed: UInt64) throws -> [String] {
            let harness = try SimulatorHarness(faults: faults, seed: seed)
            let verifier = try harness.verifier()
            return (0..<200).map { _ in Self.classify(harness.action("GET", Self.statuses), verifier: verifier) }
        }
        let first = try run(seed: 11)
        #expect(try run(seed: 11) == first)
        #expect(try run(seed: 12) != first)
    }

    @Test("Transport faults keep the real response inside", arguments: ["timeout", "truncated", "content-type"])
    func transport(kind: String) throws {
        let harness = try SimulatorHarness(faults: try FaultConfiguration.parse("\(kind)=1,timeout-seconds=42"))
        switch harness.action("GET", Self.statuses) {
        case let .delay(seconds, response):
            #expect(kind == "timeout" && seconds == 42 && response.status == 200)
        case let .truncateBody(response, bytes):
            #expect(kind == "truncated" && bytes == response.body.count / 2 && bytes > 0)
        case let .respond(response):
            #expect(kind == "content-type" && response.header("Content-Type") == "text/html" && response.json["data"] != nil)
        case .resetConnection:
            Issue.record("unexpected reset")
        }
    }

    @Test("Payload faults: invalid signature, wrong bundle, stale state, expired certificate", arguments: [
        ("signature", "signature"), ("bundle", "bundle"), ("stale", "stale"), ("expired", "expired"),
    ])
    func payloadFaults(kind: String, expected: String) throws {
        let harness = try SimulatorHarness(faults: try FaultConfiguration.parse("\(kind)=1"))
        #expect(Self.classify(harness.action("GET", Self.statuses), verifier: try harness.verifier()) == expected)
        // Payload faults never touch endpoints without signed payloads.
        #expect(harness.send("GET", "\(GooglePlayTests.base)/subscriptionsv2/tokens/token-active").status == 200)
        #expect(harness.simulator.counters.faults[TransportFault(name: kind) ?? .timeout] == 1)
    }

    @Test("Wrong bundle and invalid signature reach notification payloads too")
    func notificationFaults() throws {
        for (kind, check) in [("signature", "signature_failure"), ("bundle", "wrong_app.bundle_id")] {
            let harness = try SimulatorHarness(faults: try FaultConfiguration.parse("\(kind)=1"))
            let body: JSONValue = .object(["startDate": .integer(AppleNotificationTests.start), "endDate": .integer(TruthFixture.nowMs)])
            let page = harness.post(AppleNotificationTests.url, json: body).json
            let jws = page["notificationHistory"]?.arrayValue?.first?["signedPayload"]?.stringValue ?? ""
            #expect(try harness.verifier().verify(jws).code == check)
        }
    }

    @Test("A 429 storm answers every request to its endpoint until it ends, then the endpoint recovers")
    func storm() throws {
        let harness = try SimulatorHarness(faults: try FaultConfiguration.parse("429=1,storm-seconds=0.3"))
        let first = harness.send("GET", Self.statuses)
        #expect(first.status == 429 && first.header("Retry-After") != nil)
        let during = harness.send("GET", Self.statuses)
        #expect(during.status == 429)
        let stormed = harness.simulator.counters.faults[.rateLimitStorm] ?? 0
        #expect(stormed == 2, "both answers counted as the storm: \(stormed)")
        #expect(harness.simulator.counters.rateLimited == 0, "a storm is a fault, not the limiter's 429")

        // The window itself: the storm covers its endpoint only, until it ends.
        let window = RateLimitStorm()
        let start = Date(timeIntervalSince1970: 1_000)
        let end = window.start(.appleSubscriptionStatuses, seconds: 1, now: start)
        #expect(window.activeUntil(.appleSubscriptionStatuses, now: start.addingTimeInterval(0.5)) == end)
        #expect(window.activeUntil(.googleSubscriptionGet, now: start.addingTimeInterval(0.5)) == nil)
        #expect(window.activeUntil(.appleSubscriptionStatuses, now: start.addingTimeInterval(1.01)) == nil)
    }

    @Test("An oversized body is the real answer padded to the configured size and still decodes")
    func oversized() throws {
        let harness = try SimulatorHarness(faults: try FaultConfiguration.parse("oversized=1,oversized-bytes=100000"))
        let response = harness.send("GET", Self.statuses)
        #expect(response.status == 200 && response.body.count == 100_000)
        #expect(response.json["data"] != nil)
    }

    @Test("--faults parsing rejects bad input", arguments: ["5xx=2", "bogus=0.1", "5xx=0.6,reset=0.6", "5xx"])
    func parseErrors(text: String) {
        #expect(throws: SimulatorError.self) { try FaultConfiguration.parse(text) }
    }
}

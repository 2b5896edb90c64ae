import RateLimiting
import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import HTTPServer
import StoreTruth
@testable import StoreSimulator

/// Builds simulators over `TruthFixture` and talks to them through `handle(_:)`.
struct SimulatorHarness {
    let simulator: StoreSimulator
    let clock: ManualClock

    init(limits: Bool = false, overrides: [SimulatorEndpoint: RateLimit] = [:], faults: FaultConfiguration = .none,
         seed: UInt64 = 7, appleKey: AppStoreConnectKey? = nil, googleAccount: GoogleServiceAccountIdentity? = nil,
         reportsFolder: URL? = nil, reportFiles: [String] = [], environment: String = "Production") throws {
        clock = ManualClock(TruthFixture.now)
        var truth = TruthFixture.truth(reportFiles: reportFiles)
        truth.apple.environment = environment
        simulator = try StoreSimulator(truth: truth, configuration: SimulatorConfiguration(
            appleKey: appleKey, googleAccount: googleAccount,
            rateLimits: RateLimitConfiguration(enabled: limits, overrides: overrides), faults: faults, seed: seed,
            clock: clock.clock, reportsFolder: reportsFolder))
    }

    /// The action for one request.
    func action(_ method: String, _ url: String, body: Data = Data(), headers: [(name: String, value: String)] = []) -> HTTPServerAction {
        simulator.handle(HTTPRequest(method: method, url: url, headers: headers, body: body))
    }

    /// The response of one request (the response inside a delay or truncation; 0 for a reset).
    func send(_ method: String, _ url: String, body: Data = Data(), headers: [(name: String, value: String)] = []) -> HTTPResponse {
        Self.response(of: action(method, url, body: body, headers: headers))
    }

    /// A JSON POST.
    func post(_ url: String, json: JSONValue, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        send("POST", url, body: Responses.encode(json), headers: headers)
    }

    static func response(of action: HTTPServerAction) -> HTTPResponse {
        switch action {
        case let .respond(response), let .delay(_, response), let .truncateBody(response, _): return response
        case .resetConnection: return HTTPResponse(status: 0)
        }
    }

    /// A verifier trusting this simulator's root, for the fixture app.
    func verifier(bundleId: String = TruthFixture.bundleId) throws -> AppleJWSVerifier {
        try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: [Data(simulator.rootCertificatePEM.utf8)], bundleId: bundleId,
            appAppleId: TruthFixture.appAppleId, environment: .production))
    }
}

/// Small readers for response bodies.
extension HTTPResponse {
    var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
    var appleErrorCode: Int64? { json["errorCode"]?.int64Value }
    var googleReason: String? { json["error"]?["errors"]?.arrayValue?.first?["reason"]?.stringValue }
}

/// Decodes a JWS payload without verifying it.
func jwsPayload(_ jws: String) -> JSONValue {
    let parts = jws.split(separator: ".")
    guard parts.count == 3, let data = Base64.decodeURL(parts[1]) else { return .null }
    return (try? JSONValue.parse(data)) ?? .null
}

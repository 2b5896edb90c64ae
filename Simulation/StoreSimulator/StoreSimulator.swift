import Crypto
import Foundation
import HTTP
import HTTPServer
import StoreTruth
import TestCertificates

/// A loopback App Store Server API, App Store Connect reports, Google Play Developer API, Google OAuth and
/// Cloud Storage, serving (and mutating) one `StoreTruth`, with rate limits and seeded fault injection.
///
/// Request pipeline: route (404/405) → authentication (401/403) → rate limit (429) → a running `429` storm → fault
/// draw → endpoint.
/// Safe to call from many threads.
public final class StoreSimulator: HTTPHandler {
    /// The configuration it runs with.
    public let configuration: SimulatorConfiguration
    /// The certificate chain every Apple JWS is signed with.
    public let certificateAuthority: TestCertificateAuthority
    let app: AppleAppIdentity
    let state: SimulatorState
    let limiter: EndpointBuckets
    let injector: FaultInjector
    let storm = RateLimitStorm()
    let faultSwitch = FaultSwitch()
    let counterStore = CounterStore()
    let signer: PayloadSigner
    let appleAuthenticator: AppleAuthenticator?
    let oauth: GoogleOAuth
    let files: ReportFiles

    /// Generates the certificate chain, writes the root if configured, and loads the keys to check clients with.
    public init(truth: StoreTruth, configuration: SimulatorConfiguration = SimulatorConfiguration()) throws(SimulatorError) {
        self.configuration = configuration
        app = AppleAppIdentity(bundleId: truth.apple.bundleId, appAppleId: truth.apple.appAppleId,
                               environment: truth.apple.environment)
        do {
            certificateAuthority = try TestCertificateAuthority()
            if let path = configuration.rootCertificateOutput { try certificateAuthority.writeRootPEM(to: path) }
        } catch {
            throw .setup("test certificate authority: \(error)")
        }
        appleAuthenticator = try configuration.appleKey.map { key throws(SimulatorError) in
            try AppleAuthenticator(key: key, bundleId: truth.apple.bundleId)
        }
        oauth = try GoogleOAuth(identity: configuration.googleAccount, lifetimeSeconds: configuration.accessTokenLifetimeSeconds)
        state = SimulatorState(truth: truth, seed: configuration.seed)
        limiter = EndpointBuckets(configuration: configuration.rateLimits, sandbox: truth.apple.environment != "Production")
        injector = FaultInjector(seed: configuration.seed, configuration: configuration.faults)
        signer = PayloadSigner(authority: certificateAuthority, bundleId: truth.apple.bundleId)
        files = ReportFiles(folder: configuration.reportsFolder, paths: Set(truth.reportFiles))
    }

    /// The root certificate (PEM) clients must trust.
    public var rootCertificatePEM: String { certificateAuthority.rootPEM }

    /// Stops (`false`) or resumes (`true`) fault injection, e.g. to let a rerun meet a healthy store; a running
    /// `429` storm stops with it. Request numbering, and so the seeded draws, go on.
    public func injectFaults(_ on: Bool) { faultSwitch.set(on) }

    /// What has been served so far.
    public var counters: SimulatorCounters { counterStore.snapshot }

    /// The truth as it is now, including the simulator's own changes (acknowledgements, test notifications).
    public var currentTruth: StoreTruth { state.snapshot }

    /// Google voids a purchase (a refund or chargeback a test stages by hand): `voidedpurchases.list` lists `item`
    /// (a voided-purchase resource: purchaseToken, orderId, voidedTimeMillis, …) from now on.
    public func voidGooglePurchase(_ item: JSONValue) { state.addGoogleVoidedPurchase(item) }

    /// Answers one request (see the type's pipeline).
    public func handle(_ request: HTTPRequest) -> HTTPServerAction {
        let route = SimulatorRoute(request)
        let now = configuration.clock.now()
        let number = state.nextRequestNumber()
        let endpoint = route.endpoint
        guard endpoint != .unknown else {
            return finish(endpoint, .respond(Responses.text(404, "Not Found")))
        }
        guard route.methodAllowed else {
            return finish(endpoint, .respond(Responses.text(405, "Method Not Allowed")))
        }
        if let denial = authenticate(route, request, now: now) { return finish(endpoint, .respond(denial)) }
        if let retryAt = limiter.admit(endpoint, app: rateLimitKey(route), sandboxRequest: route.sandbox, now: now) {
            return finish(endpoint, .respond(tooManyRequests(endpoint, retryAt: retryAt)), rateLimited: true)
        }
        if faultSwitch.isOn, let end = storm.activeUntil(endpoint) {
            return finish(endpoint, .respond(tooManyRequests(endpoint, retryAt: end)), fault: .rateLimitStorm)
        }
        let fault = faultSwitch.isOn ? injector.fault(forRequest: number, endpoint: endpoint) : nil
        switch fault {
        case .rateLimitStorm?:
            let end = storm.start(endpoint, seconds: configuration.faults.stormSeconds)
            return finish(endpoint, .respond(tooManyRequests(endpoint, retryAt: end)), fault: fault)
        case .serverError?:
            return finish(endpoint, .respond(serverError(endpoint, variant: injector.variant(forRequest: number))), fault: fault)
        case .connectionReset?:
            return finish(endpoint, .resetConnection, fault: fault)
        default:
            break
        }
        let session = SigningSession(signer: signer, now: now, fault: fault.flatMap { $0.altersPayload ? $0 : nil })
        let context = RequestContext(request: request, route: route, session: session, state: state,
                                     app: route.sandbox ? app.sandbox : app,
                                     configuration: configuration)
        var response = dispatch(context)
        switch fault {
        case .timeout?:
            return finish(endpoint, .delay(seconds: configuration.faults.timeoutSeconds, then: response), fault: fault)
        case .truncatedBody?:
            return finish(endpoint, .truncateBody(response, bytes: response.body.count / 2), fault: fault)
        case .oversizedBody?:
            return finish(endpoint, .respond(OversizedBody.padded(response, to: configuration.faults.oversizedBytes)), fault: fault)
        case .wrongContentType?:
            response.headers = response.headers.filter { $0.name.lowercased() != "content-type" } + [("Content-Type", "text/html")]
            return finish(endpoint, .respond(response), fault: fault)
        default:
            let applied = session.faultApplied && (200..<300).contains(response.status)
            return finish(endpoint, .respond(response), fault: applied ? fault : nil)
        }
    }

    /// Records the outcome and passes the action through.
    private func finish(_ endpoint: SimulatorEndpoint, _ action: HTTPServerAction, fault: TransportFault? = nil,
                        rateLimited: Bool = false) -> HTTPServerAction {
        let outcome: String
        switch action {
        case let .respond(response), let .delay(_, response), let .truncateBody(response, _):
            outcome = String(response.status)
        case .resetConnection:
            outcome = "reset"
        }
        counterStore.record(endpoint, outcome: outcome, fault: fault, rateLimited: rateLimited)
        return action
    }
}

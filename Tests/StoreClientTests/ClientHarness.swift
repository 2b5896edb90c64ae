import AppStore
import Crypto
import Foundation
import GooglePlay
import HTTP
import HTTPServer
import RateLimiting
import SimulatorFixtures
import StoreAuth
import StoreCalls
import StoreSimulator
import StoreTruth

/// Records every attempt the executor reports, and every request sent with the answer's Retry-After.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [StoreCallAttempt] = []
    private var sends: [(sentAt: Date, status: Int, retryAfter: String?)] = []
    private var sentRequests: [HTTPRequest] = []
    func record(_ attempt: StoreCallAttempt) { lock.lock(); storage.append(attempt); lock.unlock() }
    func sent(_ at: Date, _ request: HTTPRequest, _ response: HTTPResponse) {
        lock.lock()
        sends.append((at, response.status, response.header("Retry-After")))
        sentRequests.append(request)
        lock.unlock()
    }
    var httpRequests: [HTTPRequest] { lock.lock(); defer { lock.unlock() }; return sentRequests }
    var attempts: [StoreCallAttempt] { lock.lock(); defer { lock.unlock() }; return storage }
    var requests: [(sentAt: Date, status: Int, retryAfter: String?)] { lock.lock(); defer { lock.unlock() }; return sends }
}

/// A store simulator on loopback with both clients pointed at it, over real libcurl.
struct ClientHarness {
    let server: LoopbackHTTPServer
    let simulator: StoreSimulator
    let apple: AppStoreClient
    let google: GooglePlayClient
    let tokens: GoogleAccessTokenProvider
    let log = CallLog()
    /// What another App Store client of the same app needs (for clients with their own limiter).
    let appleTokens: AppStoreTokenFactory
    let verifier: AppleJWSVerifier
    let send: StoreCallExecutor.Send
    let clock: SimulatorClock

    init(limits: RateLimitConfiguration = RateLimitConfiguration(enabled: false), faults: FaultConfiguration = .none,
         clientLimiter: @escaping @Sendable (StoreEndpoint) -> (any RateLimiter)? = { _ in nil },
         retry: RetryPolicy = RetryPolicy(base: 0.01, cap: 0.05, maxAttempts: 8), bundleId: String = TruthFixture.bundleId,
         clock: SimulatorClock = ManualClock(TruthFixture.now).clock) throws {
        let appleKey = try TestKeys.apple.get()
        let googleKey = try TestKeys.google.get()
        let appleSigner = try ES256Signer(privateKeyPEM: appleKey)
        let googleSigner = try RS256Signer(privateKeyPEM: googleKey)
        simulator = try StoreSimulator(truth: TruthFixture.truth(), configuration: SimulatorConfiguration(
            appleKey: AppStoreConnectKey(keyId: "KEY123", issuerId: "issuer-uuid", publicKeyPEM: try appleSigner.publicKeyPEM()),
            googleAccount: GoogleServiceAccountIdentity(clientEmail: "pipeline@project.iam.gserviceaccount.com",
                                                        publicKeyPEM: try googleSigner.publicKeyPEM()),
            rateLimits: limits, faults: faults, seed: 11, clock: clock, googleBucket: "pubsite_prod_rev_test"))
        server = try LoopbackHTTPServer(handler: simulator)
        try server.start()
        let base = "http://127.0.0.1:\(server.port)"
        let http = HTTPClient(configuration: HTTPClientConfiguration(timeouts: HTTPTimeouts(connect: 2, total: 3)))
        let log = self.log
        let send: StoreCallExecutor.Send = { request throws(HTTPError) in
            let sentAt = Date()
            let response = try http.send(request)
            log.sent(sentAt, request, response)
            return response
        }
        self.send = send
        self.clock = clock
        let executor = StoreCallExecutor(send: send, limiter: clientLimiter, retryPolicy: retry, observer: { log.record($0) })
        let verifier = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: [Data(simulator.rootCertificatePEM.utf8)], bundleId: bundleId,
            appAppleId: TruthFixture.appAppleId, environment: .production))
        self.verifier = verifier
        appleTokens = try AppStoreTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid", bundleId: TruthFixture.bundleId, privateKeyPEM: appleKey)
        apple = AppStoreClient(
            configuration: AppStoreConfiguration(baseURL: base, bundleId: TruthFixture.bundleId, appAppleId: TruthFixture.appAppleId,
                                                 environment: "Production"),
            tokens: try AppStoreTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid", bundleId: TruthFixture.bundleId, privateKeyPEM: appleKey),
            verifier: verifier, executor: executor, now: { clock.now() })
        tokens = try GoogleAccessTokenProvider(
            key: GoogleServiceAccountKey(privateKey: googleKey, clientEmail: "pipeline@project.iam.gserviceaccount.com", tokenURI: base + "/token"),
            executor: executor, now: { clock.now() })
        google = GooglePlayClient(configuration: GooglePlayConfiguration(packageName: TruthFixture.packageName, publisherBaseURL: base,
                                                                         reportBucket: "pubsite_prod_rev_test"),
                                  tokens: tokens, executor: executor)
    }

    /// Another App Store client of the same app, with its own rate limiter (another process, in effect).
    func appleClient(limiter: any RateLimiter) -> AppStoreClient {
        let log = self.log
        let executor = StoreCallExecutor(send: send, limiter: { _ in limiter }, retryPolicy: RetryPolicy(base: 0.01, cap: 0.05, maxAttempts: 8),
                                         observer: { log.record($0) })
        let clock = self.clock
        return AppStoreClient(configuration: apple.configuration, tokens: appleTokens, verifier: verifier, executor: executor,
                              now: { clock.now() })
    }
}

/// The store's own error inside a `StoreCallError.store`, if `body` fails with one of type `E`.
func storeError<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch let error as StoreCallError {
        guard case .store(let inner) = error else { return nil }
        return inner as? E
    } catch {
        return nil
    }
}

import AppStore
import BillingCore
import Crypto
import Foundation
import GooglePlay
import HTTP
import HTTPServer
import JobKit
import Postgres
import RateLimiting
import RepairJobs
import SimulatorFixtures
import StoreAuth
import StoreCalls
import StoreSimulator
import StoreTruth
import TestSupport
import WorldGen

/// A generated world in its own database, the store simulator serving its truth on loopback, and a client factory.
struct RequeryHarness {
    let world: GeneratedWorld
    let configuration: PostgresConfiguration
    let database: PostgresConnection
    let server: LoopbackHTTPServer
    let stores: StoreClientSet.Factory
    /// A verifier trusting the simulator's root (for jobs that verify stored signed payloads).
    let verifier: AppleVerification.Factory
    let databaseName: String

    /// The simulator behind the stores (its counters tell which faults it injected).
    let simulator: StoreSimulator
    /// The simulator's root certificate, the Apple key and the Google key, for job processes configured by environment.
    let rootPEM: String

    /// Faults the simulator injected so far, by `--faults` name.
    var injectedFaults: [String: Int] {
        Dictionary(uniqueKeysWithValues: simulator.counters.faults.map { ($0.key.rawValue, $0.value) })
    }

    /// A harness whose simulator injects `storeFaults` (`--faults` syntax, e.g. `5xx=0.05,timeout-seconds=1`).
    init(name: String, options: WorldOptions, storeFaults: String, clientTimeout: Double, systemClock: Bool = false) throws {
        try self.init(name: name, options: options, faults: try FaultConfiguration.parse(storeFaults), clientTimeout: clientTimeout,
                      systemClock: systemClock)
    }

    /// `systemClock`: the simulator runs on the real clock (for job processes, whose tokens carry the real time);
    /// otherwise it is frozen at the world's as-of, like the in-process clients.
    init(name: String, options: WorldOptions, faults: FaultConfiguration = .none,
         limits: RateLimitConfiguration = RateLimitConfiguration(enabled: false), clientTimeout: Double = 5,
         systemClock: Bool = false, notificationURL: String? = nil) throws {
        world = try World.generate(options)
        databaseName = name
        // Set up as an installation is (roles.sql, migrations as iap_owner): job processes (JobProcess) connect as
        // iap_job; `configuration` and `database` (fixtures, in-process clients, assertions) are the superuser's.
        configuration = try RoleDatabase.fresh(name).superuser
        database = try PostgresConnection(configuration: configuration)
        try WorldWriter.load(world, into: database)
        let appleKey = try TestKeys.apple.get()
        let googleKey = try TestKeys.google.get()
        let appleSigner = try ES256Signer(privateKeyPEM: appleKey)
        let googleSigner = try RS256Signer(privateKeyPEM: googleKey)
        let email = "pipeline@project.iam.gserviceaccount.com"
        simulator = try StoreSimulator(truth: world.truth, configuration: SimulatorConfiguration(
            appleKey: AppStoreConnectKey(keyId: "KEY123", issuerId: "issuer-uuid", publicKeyPEM: try appleSigner.publicKeyPEM()),
            googleAccount: GoogleServiceAccountIdentity(clientEmail: email, publicKeyPEM: try googleSigner.publicKeyPEM()),
            rateLimits: limits, faults: faults, seed: 3, clock: systemClock ? .system : ManualClock(options.asOf).clock,
            notificationURL: notificationURL))
        server = try LoopbackHTTPServer(handler: simulator)
        try server.start()
        let base = "http://127.0.0.1:\(server.port)"
        rootPEM = simulator.rootCertificatePEM
        let root = Data(simulator.rootCertificatePEM.utf8)
        let truth = world.truth
        let asOf = options.asOf
        let makeVerifier = { @Sendable (environment: AppleEnvironment) in
            try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
                trustedRoots: [root], bundleId: truth.apple.bundleId, appAppleId: truth.apple.appAppleId, environment: environment))
        }
        verifier = { _ in AppleVerifiers(configured: try makeVerifier(.production), sandbox: try makeVerifier(.sandbox)) }
        stores = { _, _, observer in
            let http = HTTPClient(configuration: HTTPClientConfiguration(timeouts: HTTPTimeouts(connect: 2, total: clientTimeout)))
            let executor = StoreCallExecutor(send: { request throws(HTTPError) in try http.send(request) },
                                             retryPolicy: RetryPolicy(base: 0.01, cap: 0.05, maxAttempts: 4), observer: observer)
            func apple(_ environment: AppleEnvironment, _ url: String) throws -> AppStoreClient {
                AppStoreClient(
                    configuration: AppStoreConfiguration(baseURL: url, bundleId: truth.apple.bundleId, appAppleId: truth.apple.appAppleId,
                                                         environment: environment.rawValue),
                    tokens: try AppStoreTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid", bundleId: truth.apple.bundleId, privateKeyPEM: appleKey),
                    verifier: try makeVerifier(environment), executor: executor, now: { asOf })
            }
            let tokens = try GoogleAccessTokenProvider(
                key: GoogleServiceAccountKey(privateKey: googleKey, clientEmail: email, tokenURI: base + "/token"),
                executor: executor, now: { asOf })
            let google = GooglePlayClient(configuration: GooglePlayConfiguration(packageName: truth.google.packageName, publisherBaseURL: base,
                                                                                 reportBucket: nil),
                                          tokens: tokens, executor: executor)
            return StoreClientSet(apple: try apple(.production, base), appleSandbox: try apple(.sandbox, base + "/sandbox"), google: google)
        }
    }

    /// The environment a job process of this harness sees.
    var environment: JobEnvironment {
        var variables = ProcessInfo.processInfo.environment
        variables["PGDATABASE"] = databaseName
        return JobEnvironment(variables)
    }

    /// Runs the job like a process would; returns the exit code and the summary line.
    func runJob(_ arguments: [String], stop: RequeryStop = RequeryStop()) -> (JobExitCode, String) {
        Self.runJob(arguments, stores: stores, environment: environment, stop: stop)
    }

    /// Runs any job definition like a process would; returns the exit code and the summary line.
    /// A run that finds the previous run's advisory lock not yet released (the server frees it asynchronously after
    /// the connection closes) is retried.
    func run(_ definition: JobDefinition, _ arguments: [String]) -> (JobExitCode, String) {
        var attempt = 0
        while true {
            attempt += 1
            let output = OutputBox()
            let code = JobRunner.run(definition, arguments: ["--log-format", "json"] + arguments, environment: environment,
                                     output: { output.append($0) })
            if code == .locked && attempt < 40 {
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            return (code, output.text)
        }
    }

    /// Runs the job with these clients and environment (callable from other threads).
    static func runJob(_ arguments: [String], stores: @escaping StoreClientSet.Factory, environment: JobEnvironment,
                       stop: RequeryStop = RequeryStop()) -> (JobExitCode, String) {
        let output = OutputBox()
        let code = JobRunner.run(RequeryAtRisk.definition(stores: stores, stop: stop),
                                 arguments: ["--log-format", "json"] + arguments, environment: environment, output: { output.append($0) })
        return (code, output.text)
    }
}

/// Collects the job's stdout lines.
final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return lines.joined(separator: "\n") }
}

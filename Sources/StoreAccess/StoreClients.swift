import AppStore
import BillingCore
import Crypto
import Foundation
import GooglePlay
import HTTP
import Postgres
import RateLimiting
import StoreAuth
import StoreCalls

/// The configured store clients of one job run: libcurl transport, per-endpoint rate limiters (shared in
/// PostgreSQL by default), full-jitter retries, and every attempt reported to `observer`.
public struct StoreClients: Sendable {
    public let apple: AppStoreClient?
    /// A production app's client for Apple's sandbox host, where its sandbox purchases (TestFlight, App Review)
    /// live: Apple keeps the two environments apart, with sandbox limits at 10 % of production's.
    public let appleSandbox: AppStoreClient?
    public let google: GooglePlayClient?
    /// App Store Connect report downloads (the team key, the Connect host); nil without Apple settings.
    public let appleReports: AppStoreConnectReportsClient?

    /// Builds the clients. With shared limits each endpoint's bucket lives in `rate_limit_bucket`, reached through
    /// its own connection made with `database`, so several processes and hosts together stay under one limit.
    public init(settings: StoreSettings, database: PostgresConfiguration?, retryPolicy: RetryPolicy = RetryPolicy(),
                observer: (@Sendable (StoreCallAttempt) -> Void)? = nil, now: @escaping @Sendable () -> Date = { Date() }) throws {
        let http = HTTPClient(configuration: HTTPClientConfiguration(
            timeouts: HTTPTimeouts(connect: min(HTTPTimeouts.standard.connect, settings.timeoutSeconds), total: settings.timeoutSeconds),
            maxResponseBytes: settings.maxResponseBytes))
        let configuredEnvironment: AppleEnvironment = settings.apple?.environment == "Sandbox" ? .sandbox : .production
        func executor(_ appleEnvironment: AppleEnvironment) throws -> StoreCallExecutor {
            let limits = try StoreRateLimits(appleEnvironment: appleEnvironment, overrides: settings.rateLimitOverrides)
            var limiters: [StoreEndpoint: any RateLimiter] = [:]
            // The sandbox executor serves Apple's sandbox host only: no buckets (and connections) for Google's endpoints.
            for endpoint in StoreEndpoint.allCases where appleEnvironment == configuredEnvironment || endpoint.isApple {
                var scope = (endpoint.isApple ? settings.apple?.bundleId : settings.google?.packageName) ?? "unconfigured"
                if endpoint.isApple && appleEnvironment == .sandbox { scope += "/sandbox" }
                if settings.sharedRateLimits, let database {
                    limiters[endpoint] = try PostgresTokenBucket(key: endpoint.bucketKey(scope: scope), limit: limits.limit(for: endpoint),
                                                                 configuration: database)
                } else {
                    limiters[endpoint] = try TokenBucket(name: endpoint.rawValue, limit: limits.limit(for: endpoint))
                }
            }
            let chosen = limiters
            return StoreCallExecutor(send: { request throws(HTTPError) in try http.send(request) },
                                     limiter: { chosen[$0] }, retryPolicy: retryPolicy, observer: observer)
        }
        let main = try executor(configuredEnvironment)
        if let apple = settings.apple {
            self.apple = try Self.appleClient(apple, environment: apple.environment, baseURL: apple.baseURL, executor: main, now: now)
            self.appleSandbox = try apple.sandboxBaseURL.map {
                try Self.appleClient(apple, environment: "Sandbox", baseURL: $0, executor: try executor(.sandbox), now: now)
            }
            self.appleReports = AppStoreConnectReportsClient(
                baseURL: apple.connectBaseURL, tokens: try AppStoreConnectTokenFactory(keyId: apple.keyId, issuerId: apple.issuerId,
                                                                                        privateKeyPEM: apple.privateKeyPEM),
                executor: main, now: now)
        } else {
            self.apple = nil
            self.appleSandbox = nil
            self.appleReports = nil
        }
        if let google = settings.google {
            let key = try GoogleServiceAccountKey(jsonData: google.serviceAccountJSON)
            let tokens = try GoogleAccessTokenProvider(key: key, tokenURL: google.tokenURL, executor: main, now: now)
            self.google = GooglePlayClient(configuration: GooglePlayConfiguration(packageName: google.packageName, publisherBaseURL: google.baseURL,
                                                                                  reportBucket: google.reportBucket),
                                           tokens: tokens, executor: main)
        } else {
            self.google = nil
        }
    }

    /// An App Store client for one environment: its host, a verifier that accepts only that environment, its limits.
    private static func appleClient(_ apple: StoreSettings.Apple, environment: String, baseURL: String, executor: StoreCallExecutor,
                                    now: @escaping @Sendable () -> Date) throws -> AppStoreClient {
        let verifier = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRootFiles: apple.rootCertificateFiles, bundleId: apple.bundleId, appAppleId: apple.appAppleId,
            environment: AppleEnvironment(rawValue: environment)))
        let tokens = try AppStoreTokenFactory(keyId: apple.keyId, issuerId: apple.issuerId, bundleId: apple.bundleId,
                                              privateKeyPEM: apple.privateKeyPEM)
        return AppStoreClient(configuration: AppStoreConfiguration(baseURL: baseURL, bundleId: apple.bundleId,
                                                                   appAppleId: apple.appAppleId, environment: environment),
                              tokens: tokens, verifier: verifier, executor: executor, now: now)
    }
}

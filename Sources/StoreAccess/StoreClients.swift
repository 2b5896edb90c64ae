import AppStore
import Crypto
import Foundation
import GooglePlay
import HTTP
import Postgres
import RateLimiting
import StoreCalls

/// The configured store clients of one job run: libcurl transport, per-endpoint rate limiters (shared in
/// PostgreSQL by default), full-jitter retries, and every attempt reported to `observer`.
public struct StoreClients: Sendable {
    public let apple: AppStoreClient?
    public let google: GooglePlayClient?

    /// Builds the clients. With shared limits each endpoint's bucket lives in `rate_limit_bucket`, reached through
    /// its own connection made with `database`, so several processes and hosts together stay under one limit.
    public init(settings: StoreSettings, database: PostgresConfiguration?, retryPolicy: RetryPolicy = RetryPolicy(),
                observer: (@Sendable (StoreCallAttempt) -> Void)? = nil, now: @escaping @Sendable () -> Date = { Date() }) throws {
        let http = HTTPClient()
        let appleEnvironment: StoreRateLimits.AppleEnvironment = settings.apple?.environment == "Sandbox" ? .sandbox : .production
        let limits = try StoreRateLimits(appleEnvironment: appleEnvironment, overrides: settings.rateLimitOverrides)
        var limiters: [StoreEndpoint: any RateLimiter] = [:]
        for endpoint in StoreEndpoint.allCases {
            let scope = (endpoint.isApple ? settings.apple?.bundleId : settings.google?.packageName) ?? "unconfigured"
            if settings.sharedRateLimits, let database {
                limiters[endpoint] = try PostgresTokenBucket(key: endpoint.bucketKey(scope: scope), limit: limits.limit(for: endpoint),
                                                             configuration: database)
            } else {
                limiters[endpoint] = try TokenBucket(name: endpoint.rawValue, limit: limits.limit(for: endpoint))
            }
        }
        let chosen = limiters
        let executor = StoreCallExecutor(send: { request throws(HTTPError) in try http.send(request) },
                                         limiter: { chosen[$0] }, retryPolicy: retryPolicy, observer: observer)
        if let apple = settings.apple {
            let verifier = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
                trustedRootFiles: apple.rootCertificateFiles, bundleId: apple.bundleId, appAppleId: apple.appAppleId,
                environment: Crypto.AppleEnvironment(rawValue: apple.environment)))
            let tokens = try AppStoreTokenFactory(keyId: apple.keyId, issuerId: apple.issuerId, bundleId: apple.bundleId,
                                                  privateKeyPEM: apple.privateKeyPEM)
            self.apple = AppStoreClient(configuration: AppStoreConfiguration(baseURL: apple.baseURL, bundleId: apple.bundleId,
                                                                             appAppleId: apple.appAppleId, environment: apple.environment),
                                        tokens: tokens, verifier: verifier, executor: executor, now: now)
        } else {
            self.apple = nil
        }
        if let google = settings.google {
            let key = try GoogleServiceAccountKey(jsonData: google.serviceAccountJSON)
            let tokens = try GoogleAccessTokenProvider(key: key, tokenURL: google.tokenURL, executor: executor, now: now)
            self.google = GooglePlayClient(configuration: GooglePlayConfiguration(packageName: google.packageName, publisherBaseURL: google.baseURL,
                                                                                  reportBucket: google.reportBucket),
                                           tokens: tokens, executor: executor)
        } else {
            self.google = nil
        }
    }
}

import Foundation

/// Everything about a simulator run except the truth it serves (Apple's bundleId, appAppleId and environment come from the truth).
public struct SimulatorConfiguration: Sendable {
    /// The App Store Connect key whose JWTs are accepted; nil accepts any request without checking (tests only).
    public var appleKey: AppStoreConnectKey?
    /// The service account whose OAuth assertions are accepted; nil accepts any request without a token (tests only).
    public var googleAccount: GoogleServiceAccountIdentity?
    /// Rate limits.
    public var rateLimits: RateLimitConfiguration
    /// Fault injection rates.
    public var faults: FaultConfiguration
    /// Seeds the fault draws and generated identifiers.
    public var seed: UInt64
    /// The simulator's time.
    public var clock: SimulatorClock
    /// Where to write the generated root certificate (PEM) at start, if anywhere.
    public var rootCertificateOutput: String?
    /// The truth folder's `reports/` directory, where `StoreTruth.reportFiles` live.
    public var reportsFolder: URL?
    /// The Cloud Storage bucket that holds the Google report files (`reports/google/…` in the truth folder).
    public var googleBucket: String
    /// Lifetime of issued Google access tokens, seconds.
    public var accessTokenLifetimeSeconds: Int
    /// HTTP status for Google over-quota answers: 429 RESOURCE_EXHAUSTED, or 403 rateLimitExceeded (the older quota).
    public var googleQuotaStatus: Int
    /// Where Request a Test Notification delivers its TEST notification: `{"signedPayload": …}` POSTed as App Store
    /// Server Notifications V2 are, the answer recorded as the send attempt. Nil: not delivered, recorded as SUCCESS.
    public var notificationURL: String?

    /// Makes a configuration; the defaults enforce the published limits, inject no faults and use the system clock.
    public init(appleKey: AppStoreConnectKey? = nil, googleAccount: GoogleServiceAccountIdentity? = nil,
                rateLimits: RateLimitConfiguration = RateLimitConfiguration(), faults: FaultConfiguration = .none,
                seed: UInt64 = 1, clock: SimulatorClock = .system, rootCertificateOutput: String? = nil,
                reportsFolder: URL? = nil, googleBucket: String = "pubsite_prod_rev_simulator",
                accessTokenLifetimeSeconds: Int = 3600, googleQuotaStatus: Int = 429, notificationURL: String? = nil) {
        self.appleKey = appleKey
        self.googleAccount = googleAccount
        self.rateLimits = rateLimits
        self.faults = faults
        self.seed = seed
        self.clock = clock
        self.rootCertificateOutput = rootCertificateOutput
        self.reportsFolder = reportsFolder
        self.googleBucket = googleBucket
        self.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds
        self.googleQuotaStatus = googleQuotaStatus
        self.notificationURL = notificationURL
    }
}

import Foundation
import HTTP
import JobKit

/// Store API settings read from the environment. Secrets (the App Store Connect key, the Google service
/// account) are read from the files the variables name, never from arguments; a file group or others may read or
/// write is refused (`JobEnvironment.secretFromFile`).
///
/// | variable | meaning |
/// |---|---|
/// | `APPLE_BUNDLE_ID`, `APPLE_APP_APPLE_ID` | the app |
/// | `APPLE_ENVIRONMENT` | `Production` (default) or `Sandbox` |
/// | `APPLE_API_BASE_URL` | default Apple's production or sandbox host; the simulator's URL in demo/tests |
/// | `APPLE_SANDBOX_API_BASE_URL` | production apps only: where their sandbox purchases (TestFlight, App Review) are queried; default Apple's sandbox host |
/// | `APPLE_KEY_ID`, `APPLE_ISSUER_ID`, `APPLE_PRIVATE_KEY_FILE` | App Store Connect API key (.p8 file) |
/// | `APPLE_ROOT_CERT_FILES` | comma-separated root certificate files that signed payloads must chain to |
/// | `APPLE_VENDOR_NUMBER` | App Store Connect vendor number (report downloads; optional) |
/// | `APPLE_CONNECT_API_BASE_URL` | App Store Connect API host for report downloads; default Apple's, the simulator's URL in demo/tests |
/// | `GOOGLE_PACKAGE_NAME`, `GOOGLE_SERVICE_ACCOUNT_FILE` | the app and its service-account key file |
/// | `GOOGLE_API_BASE_URL`, `GOOGLE_TOKEN_URL`, `GOOGLE_REPORT_BUCKET` | overrides (simulator, report bucket) |
/// | `STORE_RATE_LIMITS` | per-endpoint overrides, e.g. `apple.getAllSubscriptionStatuses=20` |
/// | `STORE_RATE_LIMIT_SHARING` | `postgres` (default: one budget across processes and hosts) or `memory` |
/// | `STORE_TIMEOUT_SECONDS` | the limit for one store exchange, connect included (default 30) |
/// | `STORE_MAX_RESPONSE_BYTES` | the largest store answer accepted; a larger one is aborted while it arrives (default 8 MiB) |
public struct StoreSettings: Sendable {
    /// Apple's part; nil when `APPLE_BUNDLE_ID` is not set (the job then skips Apple).
    public struct Apple: Sendable {
        public var bundleId: String
        public var appAppleId: Int64?
        public var environment: String
        public var baseURL: String
        /// The sandbox host a production app queries its sandbox purchases at; nil when `environment` is Sandbox.
        public var sandboxBaseURL: String?
        public var keyId: String
        public var issuerId: String
        public var privateKeyPEM: String
        public var rootCertificateFiles: [String]
        /// The vendor number report downloads name; nil when `APPLE_VENDOR_NUMBER` is not set.
        public var vendorNumber: String? = nil
        /// The App Store Connect API host (report downloads).
        public var connectBaseURL: String = "https://api.appstoreconnect.apple.com"
    }

    /// Google's part; nil when `GOOGLE_PACKAGE_NAME` is not set.
    public struct Google: Sendable {
        public var packageName: String
        public var serviceAccountJSON: Data
        public var baseURL: String
        public var tokenURL: String?
        public var reportBucket: String?
    }

    public var apple: Apple?
    public var google: Google?
    public var rateLimitOverrides: String
    public var sharedRateLimits: Bool
    /// The limit for one store exchange in seconds (`STORE_TIMEOUT_SECONDS`, default 30).
    public var timeoutSeconds: Double = HTTPTimeouts.standard.total
    /// The largest store answer body accepted, in bytes (`STORE_MAX_RESPONSE_BYTES`, default 8 MiB).
    public var maxResponseBytes: Int = HTTPClientConfiguration.defaultMaxResponseBytes

    /// Reads the settings; a missing variable or unreadable secret file is a configuration error naming it.
    public static func read(_ environment: JobEnvironment) throws -> StoreSettings {
        var apple: Apple?
        if let bundleId = environment.optional("APPLE_BUNDLE_ID") {
            let appleEnvironment = environment.optional("APPLE_ENVIRONMENT") ?? "Production"
            guard ["Production", "Sandbox"].contains(appleEnvironment) else {
                throw JobError.configuration("APPLE_ENVIRONMENT is Production or Sandbox, not '\(appleEnvironment)'")
            }
            let appAppleId = try environment.optional("APPLE_APP_APPLE_ID").map { text -> Int64 in
                guard let value = Int64(text) else { throw JobError.configuration("APPLE_APP_APPLE_ID must be a number, not '\(text)'") }
                return value
            }
            let key = try environment.secretFromFile("APPLE_PRIVATE_KEY_FILE", purpose: "App Store Connect API key (.p8)")
            let roots = try environment.require("APPLE_ROOT_CERT_FILES", purpose: "Apple root certificate files, comma-separated")
            apple = Apple(
                bundleId: bundleId, appAppleId: appAppleId, environment: appleEnvironment,
                baseURL: environment.optional("APPLE_API_BASE_URL")
                    ?? (appleEnvironment == "Sandbox" ? "https://api.storekit-sandbox.apple.com" : "https://api.storekit.apple.com"),
                sandboxBaseURL: appleEnvironment == "Sandbox" ? nil
                    : environment.optional("APPLE_SANDBOX_API_BASE_URL") ?? "https://api.storekit-sandbox.apple.com",
                keyId: try environment.require("APPLE_KEY_ID", purpose: "App Store Connect key id"),
                issuerId: try environment.require("APPLE_ISSUER_ID", purpose: "App Store Connect issuer id"),
                privateKeyPEM: String(decoding: key, as: UTF8.self),
                rootCertificateFiles: roots.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                vendorNumber: environment.optional("APPLE_VENDOR_NUMBER"),
                connectBaseURL: environment.optional("APPLE_CONNECT_API_BASE_URL") ?? "https://api.appstoreconnect.apple.com")
        }
        var google: Google?
        if let packageName = environment.optional("GOOGLE_PACKAGE_NAME") {
            google = Google(
                packageName: packageName,
                serviceAccountJSON: try environment.secretFromFile("GOOGLE_SERVICE_ACCOUNT_FILE", purpose: "Google service-account key"),
                baseURL: environment.optional("GOOGLE_API_BASE_URL") ?? "https://androidpublisher.googleapis.com",
                tokenURL: environment.optional("GOOGLE_TOKEN_URL"), reportBucket: environment.optional("GOOGLE_REPORT_BUCKET"))
        }
        guard apple != nil || google != nil else {
            throw JobError.configuration("missing environment variable APPLE_BUNDLE_ID or GOOGLE_PACKAGE_NAME: no store is configured")
        }
        let sharing = environment.optional("STORE_RATE_LIMIT_SHARING") ?? "postgres"
        guard ["postgres", "memory"].contains(sharing) else {
            throw JobError.configuration("STORE_RATE_LIMIT_SHARING is postgres or memory, not '\(sharing)'")
        }
        var settings = StoreSettings(apple: apple, google: google, rateLimitOverrides: environment.optional("STORE_RATE_LIMITS") ?? "",
                                     sharedRateLimits: sharing == "postgres")
        if let text = environment.optional("STORE_TIMEOUT_SECONDS") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw JobError.configuration("STORE_TIMEOUT_SECONDS is a positive number of seconds, not '\(text)'")
            }
            settings.timeoutSeconds = seconds
        }
        if let text = environment.optional("STORE_MAX_RESPONSE_BYTES") {
            guard let bytes = Int(text), bytes > 0 else {
                throw JobError.configuration("STORE_MAX_RESPONSE_BYTES is a positive number of bytes, not '\(text)'")
            }
            settings.maxResponseBytes = bytes
        }
        return settings
    }
}

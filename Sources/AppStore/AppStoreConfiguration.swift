import Foundation

/// Where and as whom the App Store Server API is called.
public struct AppStoreConfiguration: Sendable {
    /// Production `https://api.storekit.apple.com`, sandbox `https://api.storekit-sandbox.apple.com`,
    /// or the simulator's `http://127.0.0.1:<port>`.
    public var baseURL: String
    /// Base URL of the App Store Connect API (report downloads): `https://api.appstoreconnect.apple.com`.
    public var connectBaseURL: String
    public var bundleId: String
    public var appAppleId: Int64?
    /// "Production" or "Sandbox": selects the rate-limit defaults (sandbox gets 10%).
    public var environment: String

    /// Makes a configuration.
    public init(baseURL: String, connectBaseURL: String? = nil, bundleId: String, appAppleId: Int64?, environment: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.connectBaseURL = connectBaseURL ?? self.baseURL
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }

    /// Apple's production API host.
    public static let productionURL = "https://api.storekit.apple.com"
    /// Apple's sandbox API host.
    public static let sandboxURL = "https://api.storekit-sandbox.apple.com"
}

/// The App Store environment a payload was signed in (its `environment`); unknown values are kept raw.
/// The one Apple environment type: the JWS verifier, the store clients, the quota table and the projection use it.
public struct AppleEnvironment: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The payload's string, e.g. "Production".
    public let rawValue: String

    /// Wraps any environment string.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Live App Store purchases.
    public static let production = AppleEnvironment(rawValue: "Production")
    /// Sandbox testers and TestFlight.
    public static let sandbox = AppleEnvironment(rawValue: "Sandbox")
    /// StoreKit testing in Xcode (locally signed; never passes chain validation to Apple's root).
    public static let xcode = AppleEnvironment(rawValue: "Xcode")
    /// Apple's local testing environment.
    public static let localTesting = AppleEnvironment(rawValue: "LocalTesting")

    /// The pipeline's environment: everything but Production is a sandbox.
    public var storeEnvironment: StoreEnvironment { self == .production ? .production : .sandbox }

    /// The raw string.
    public var description: String { rawValue }
}

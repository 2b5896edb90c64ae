import BillingCore
import Crypto
import Foundation
import JobKit
import StoreAccess

/// The App Store JWS verifiers a job uses to check signed payloads it reads from the database: one for the
/// configured environment and, for a production app, one for its sandbox purchases (TestFlight, App Review),
/// because a verifier accepts exactly one environment.
public struct AppleVerifiers: Sendable {
    /// Verifies payloads of the configured environment.
    public let configured: AppleJWSVerifier
    /// Verifies a production app's sandbox payloads; nil when the app is configured for Sandbox.
    public let sandbox: AppleJWSVerifier?

    /// Wraps the verifiers.
    public init(configured: AppleJWSVerifier, sandbox: AppleJWSVerifier?) {
        self.configured = configured
        self.sandbox = sandbox
    }

    /// The verifier for a stored event's `environment` column (`SANDBOX`, `PRODUCTION` or `UNKNOWN`).
    public func forEventEnvironment(_ environment: String) -> AppleJWSVerifier {
        environment.uppercased() == "SANDBOX" ? sandbox ?? configured : configured
    }
}

/// Builds the verifiers of one process.
public enum AppleVerification {
    /// Builds the verifiers; nil when Apple is not configured. Tests substitute the simulator's root.
    public typealias Factory = @Sendable (JobEnvironment) throws -> AppleVerifiers?

    /// The production factory: the Apple settings of `StoreSettings.read`.
    public static let fromEnvironment: Factory = { environment in
        guard let apple = try StoreSettings.read(environment).apple else { return nil }
        func verifier(_ name: String) throws -> AppleJWSVerifier {
            try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
                trustedRootFiles: apple.rootCertificateFiles, bundleId: apple.bundleId, appAppleId: apple.appAppleId,
                environment: AppleEnvironment(rawValue: name)))
        }
        return AppleVerifiers(configured: try verifier(apple.environment),
                              sandbox: apple.sandboxBaseURL == nil ? nil : try verifier("Sandbox"))
    }
}

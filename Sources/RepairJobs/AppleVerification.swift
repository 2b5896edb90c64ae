import Crypto
import Foundation
import JobKit
import StoreAccess

/// Builds the App Store JWS verifier a job uses to check signed payloads it reads from the database.
public enum AppleVerification {
    /// Builds the verifier for one process; nil when Apple is not configured. Tests substitute the simulator's root.
    public typealias Factory = @Sendable (JobEnvironment) throws -> AppleJWSVerifier?

    /// The production factory: the Apple settings of `StoreSettings.read`.
    public static let fromEnvironment: Factory = { environment in
        guard let apple = try StoreSettings.read(environment).apple else { return nil }
        return try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRootFiles: apple.rootCertificateFiles, bundleId: apple.bundleId, appAppleId: apple.appAppleId,
            environment: Crypto.AppleEnvironment(rawValue: apple.environment)))
    }
}

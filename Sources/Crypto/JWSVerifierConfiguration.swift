import BillingCore
import Foundation

/// What an `AppleJWSVerifier` trusts and expects: root certificates, app and environment.
public struct JWSVerifierConfiguration: Sendable {
    /// Trusted root certificates, each PEM (one or more blocks) or DER.
    public let trustedRoots: [Data]
    /// The app's bundle ID every payload must carry.
    public let bundleId: String
    /// The app's Apple ID; required in production, where notifications must carry it.
    public let appAppleId: Int64?
    /// The environment every payload must carry.
    public let environment: AppleEnvironment

    /// Creates a configuration; throws without a root, with an empty bundle ID, or in production without `appAppleId`.
    public init(trustedRoots: [Data], bundleId: String, appAppleId: Int64?, environment: AppleEnvironment) throws {
        guard !trustedRoots.isEmpty else { throw CryptoError.invalidArgument("at least one trusted root is required") }
        guard !bundleId.isEmpty else { throw CryptoError.invalidArgument("bundleId must not be empty") }
        if environment == .production, appAppleId == nil {
            throw CryptoError.invalidArgument("appAppleId is required for the Production environment")
        }
        self.trustedRoots = trustedRoots
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }

    /// Reads the trusted roots from files (PEM or DER), e.g. `AppleRootCA-G3.cer`.
    public init(trustedRootFiles: [String], bundleId: String, appAppleId: Int64?, environment: AppleEnvironment) throws {
        try self.init(trustedRoots: trustedRootFiles.map(FileText.readData), bundleId: bundleId,
                      appAppleId: appAppleId, environment: environment)
    }
}

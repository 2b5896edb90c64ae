/// The `externalPurchaseToken` object of an `EXTERNAL_PURCHASE_TOKEN` notification (External Purchase API).
///
/// It names no environment: an `externalPurchaseId` starting with "SANDBOX" is a sandbox token, any other a
/// production one (as Apple's library reads it; see `environmentValue`).
public struct ExternalPurchaseToken: Sendable, Equatable, Decodable {
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: AppleTimestamp?
    public var appAppleId: Int64?
    public var bundleId: String?

    /// Creates a token with every field nil.
    public init() {}

    /// The environment the token's id implies.
    public var environmentValue: AppleEnvironment {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
    }
}

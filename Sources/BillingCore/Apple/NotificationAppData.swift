/// The `appData` object of a notification about the app rather than a purchase (e.g. `RESCIND_CONSENT`).
///
/// Field names as Apple's App Store Server Notifications `appData` spells them.
public struct NotificationAppData: Sendable, Equatable, Decodable {
    public var appAppleId: Int64?
    public var bundleId: String?
    /// Raw `environment` ("Sandbox" / "Production").
    public var environment: String?
    /// The JWS of the app transaction (`AppTransaction`), verified separately when needed.
    public var signedAppTransactionInfo: String?

    /// Creates app data with every field nil.
    public init() {}
}

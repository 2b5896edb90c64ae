/// `externalAccountIdentifiers`: the app's account identifiers set at purchase time.
public struct ExternalAccountIdentifiers: Sendable, Equatable, Decodable {
    public var externalAccountId: String?
    /// The billing account token passed with `setObfuscatedAccountId`.
    public var obfuscatedExternalAccountId: String?
    public var obfuscatedExternalProfileId: String?
}

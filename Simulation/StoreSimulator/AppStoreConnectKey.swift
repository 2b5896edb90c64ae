/// The public half of an App Store Connect API key: what the simulator checks incoming ES256 JWTs against.
public struct AppStoreConnectKey: Sendable, Equatable {
    /// The key ID a token's header `kid` must name.
    public var keyId: String
    /// The issuer ID a token's `iss` claim must carry.
    public var issuerId: String
    /// The P-256 public key, PEM (SubjectPublicKeyInfo).
    public var publicKeyPEM: String

    /// Makes a key description.
    public init(keyId: String, issuerId: String, publicKeyPEM: String) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.publicKeyPEM = publicKeyPEM
    }
}

/// The public half of a Google service account: what the simulator's OAuth endpoint checks assertions against.
public struct GoogleServiceAccountIdentity: Sendable, Equatable {
    /// The `iss` every assertion must carry.
    public var clientEmail: String
    /// The RSA public key, PEM (SubjectPublicKeyInfo).
    public var publicKeyPEM: String

    /// Makes an identity.
    public init(clientEmail: String, publicKeyPEM: String) {
        self.clientEmail = clientEmail
        self.publicKeyPEM = publicKeyPEM
    }
}

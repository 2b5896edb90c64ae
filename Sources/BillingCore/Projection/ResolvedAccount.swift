/// A billing account the caller found for an account token.
public struct ResolvedAccount: Sendable, Hashable {
    /// `BillingAccount.id`.
    public var id: String
    /// Whether the account already consumed a free trial (any provider).
    public var hasHadTrial: Bool

    /// Creates a resolved account.
    public init(id: String, hasHadTrial: Bool = false) {
        self.id = id
        self.hasHadTrial = hasHadTrial
    }
}

/// Database look-ups the caller did before projecting (the projection itself does no I/O).
public struct ResolvedReferences: Sendable, Hashable {
    /// The account `appAccountToken` / `obfuscatedExternalAccountId` resolves to; nil = no match.
    public var tokenAccount: ResolvedAccount?
    /// The plan the store product maps to; nil = no mapping (an error unless the subscription is known).
    public var plan: ResolvedPlan?

    /// Creates references.
    public init(tokenAccount: ResolvedAccount? = nil, plan: ResolvedPlan?) {
        self.tokenAccount = tokenAccount
        self.plan = plan
    }
}

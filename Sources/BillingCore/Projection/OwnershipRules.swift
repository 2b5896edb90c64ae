/// Account linking, plan and provider rules shared by both stores.
enum OwnershipRules {
    /// Rejects WEB and provider mismatches between the subscription, the store state and the plan.
    static func checkProvider(current: SubscriptionSnapshot?, storeProvider: BillingProvider,
                              plan: ResolvedPlan?) throws(ProjectionError) {
        for provider in [current?.provider, plan?.provider].compactMap({ $0 }) {
            if provider == .web { throw .unsupportedProvider(.web) }
            if provider != storeProvider { throw .providerMismatch(expected: provider, actual: storeProvider) }
        }
    }

    /// The billing account the subscription belongs to after this projection.
    ///
    /// - A known owner is never replaced: another requested account is an error.
    /// - A client ingest claims the purchase for the authenticated account unless the purchase's
    ///   account token names a different account (error).
    /// - Otherwise the account the token resolves to; nil keeps the purchase unclaimed (never guessed).
    static func billingAccount(current: SubscriptionSnapshot?, tokenAccount: ResolvedAccount?, trigger: ProjectionTrigger,
                               provider: BillingProvider, identifier: String) throws(ProjectionError) -> String? {
        var requested = tokenAccount?.id
        if case .clientIngest(_, let requester) = trigger.source {
            if let tokenId = tokenAccount?.id, tokenId != requester {
                throw .accountTokenMismatch(tokenAccountId: tokenId, requestingAccountId: requester)
            }
            requested = requester
        }
        guard let owner = current?.billingAccountId else { return requested }
        if let requested, requested != owner {
            throw .ownedByAnotherAccount(provider: provider, identifier: identifier, ownerAccountId: owner,
                                         requestedAccountId: requested)
        }
        return owner
    }

    /// The plan id and billing period; the subscription's own plan (period unknown) when the product is unmapped.
    static func plan(_ resolved: ResolvedPlan?, current: SubscriptionSnapshot?,
                     productId: String?) throws(ProjectionError) -> (planId: String, period: BillingPeriod?) {
        if let resolved { return (resolved.planId, resolved.billingPeriod) }
        if let current { return (current.planId, nil) }
        throw .productNotMapped(productId: productId ?? "(none)")
    }
}

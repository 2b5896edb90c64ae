/// The one pure projection from verified store state to the subscription model.
///
/// Decisions the mapping tables of docs/DATA_MODEL.md leave open:
/// - Ordering: see `OutcomeAssembler`/`ProjectionDisposition.stale` — older states keep their history rows.
/// - Status for "(status 不変)" / "(再照会)" rows is derived from the state itself (Apple: status int,
///   billing-retry and grace dates as of signedDate; Google: subscriptionState), so it never drifts.
/// - REFUND_REVERSED: status re-derived from the reinstated transaction, no BillingEventType (none exists).
/// - REFUND_DECLINED, types outside the tables, unknown types/subtypes/states: recorded only (state kept);
///   an unknown subscription is projected from its state instead.
/// - Google type 12 and voids of the latest order refine EXPIRED to REVOKED, which later re-queries keep.
/// - Google PENDING: never entitled, never acknowledged, no BillingTransaction (no successful order yet).
/// - Apple current price: the charged `price` of the latest transaction (nil during a free trial);
///   Google: `recurringPrice`, except a value equal to a still-open change's new price is not trusted.
public enum Projection {
    /// Projects store truth onto a subscription: new state, entitlement, history rows, price change, tokens.
    ///
    /// - Parameters:
    ///   - current: the subscription as the database has it; nil if the database does not know it yet.
    ///   - storeState: verified, decoded store truth (Apple or Google).
    ///   - trigger: where the state came from and "now".
    ///   - settings: product policy (grace-period entitlement).
    ///   - resolved: the account the purchase's account token resolves to and the plan its product maps to.
    /// - Throws: `ProjectionError` for WEB, a purchase owned by another account, partial data, unmapped products.
    public static func project(current: SubscriptionSnapshot?, storeState: StoreState, trigger: ProjectionTrigger,
                               settings: ProjectionSettings = .standard,
                               resolved: ResolvedReferences) throws -> ProjectionOutcome {
        try OwnershipRules.checkProvider(current: current, storeProvider: storeState.provider, plan: resolved.plan)
        let draft: ProjectionDraft
        switch storeState {
        case .apple(let state):
            draft = try AppleProjector(current: current, state: state, trigger: trigger, resolved: resolved).draft()
        case .google(let state):
            draft = try GoogleProjector(current: current, state: state, trigger: trigger, resolved: resolved).draft()
        }
        return OutcomeAssembler.assemble(draft, current: current, trigger: trigger, settings: settings)
    }
}

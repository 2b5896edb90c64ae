import Foundation

/// Applies ordering, entitlement and flags to a provider draft.
///
/// Ordering: a store state older than `current.lastStoreStateAt`, or whose content the provider projector found older
/// than the stored state (`ProjectionDraft.contentOlderThanStored`), never overwrites the subscription
/// (disposition `.stale`), but its history rows are still returned and its history facts (trial end,
/// cancellation time within the current period, Google revocation) are merged, so that applying the
/// same states in any order converges to the state of applying them in order.
enum OutcomeAssembler {
    static func assemble(_ draft: ProjectionDraft, current: SubscriptionSnapshot?, trigger: ProjectionTrigger,
                         settings: ProjectionSettings) -> ProjectionOutcome {
        var snapshot: SubscriptionSnapshot
        var disposition: ProjectionDisposition
        var priceChange = draft.priceChange
        var tokenChanges = draft.tokenChanges
        if let current, draft.contentOlderThanStored || current.lastStoreStateAt.map({ draft.stateTime < $0 }) == true {
            snapshot = merge(draft.history, into: current)
            disposition = .stale
            priceChange = nil
            tokenChanges = []
        } else if let current, draft.keepCurrentState {
            snapshot = current
            disposition = .unchanged
        } else {
            snapshot = draft.snapshot
            snapshot.lastStoreStateAt = Instants.latest(current?.lastStoreStateAt, storeInstant(of: draft, current: current))
            disposition = current?.comparable == snapshot.comparable ? .unchanged : .applied
        }
        snapshot.lastVerifiedAt = Instants.latest(current?.lastVerifiedAt, trigger.now)
        if var change = priceChange {
            change.productId = change.productId ?? snapshot.productId
            change.regionCode = change.regionCode ?? draft.transactions.lazy.compactMap(\.storefront).first
            change.stateAt = change.stateAt ?? (change.state == .applied ? change.effectiveAt : nil) ?? draft.stateTime
            priceChange = change
        }
        let flags = ProjectionFlags(
            acknowledgementNeeded: needsAcknowledgement(snapshot), isTestPurchase: snapshot.isTestPurchase,
            environment: draft.environment, isUnclaimed: snapshot.billingAccountId == nil,
            trialAlreadyConsumed: draft.trialAlreadyConsumed)
        return ProjectionOutcome(
            disposition: disposition, subscription: snapshot,
            entitlement: entitlement(for: snapshot, now: trigger.now, settings: settings),
            eventType: draft.eventType, eventLabel: draft.eventLabel, transactions: draft.transactions,
            priceChange: priceChange, tokenChanges: tokenChanges, churnReason: draft.churnReason, flags: flags)
    }

    /// The instant a state contributes to `lastStoreStateAt` (which keeps the latest): the state's own instant when the
    /// store names one (a notification's signedDate or eventTime, a void's time); for a re-query's answer, which the
    /// store dates when it is asked, the latest instant its content records before that (its history rows: a charge's
    /// purchase, a cancellation, an expiry). So the value is the same whether, and when, a job re-queried the
    /// subscription: replaying the notification and re-querying give the notification's instant in either order.
    /// Nil (keep the stored value) when a re-query's answer records no earlier instant for a known subscription.
    static func storeInstant(of draft: ProjectionDraft, current: SubscriptionSnapshot?) -> Date? {
        guard draft.stateTimeIsQueryTime else { return draft.stateTime }
        let recorded = draft.transactions.lazy.map(\.effectiveAt).filter { $0 < draft.stateTime }.max()
        return recorded ?? (current == nil ? draft.stateTime : nil)
    }

    /// Merges order-independent facts of an older state into the newer subscription.
    static func merge(_ facts: HistoryFacts, into current: SubscriptionSnapshot) -> SubscriptionSnapshot {
        var merged = current
        if let trialEnd = facts.trialEndsAt { merged.trialEndsAt = Instants.latest(merged.trialEndsAt, trialEnd) }
        if facts.trialSeen { merged.accountHasHadTrial = true }
        if let cancellation = facts.cancellation, !merged.autoRenew, merged.cancelAt == cancellation.periodEnd {
            merged.canceledAt = Instants.latest(merged.canceledAt, cancellation.at)
        }
        if let token = facts.revokedToken, merged.google?.purchaseToken == token, merged.status == .expired {
            merged.status = .revoked
        }
        return merged
    }

    /// Entitled: claimed and ACTIVE/TRIALING, IN_GRACE_PERIOD when the policy keeps it, CANCELED until period end.
    static func entitlement(for snapshot: SubscriptionSnapshot, now: Date, settings: ProjectionSettings) -> EntitlementProjection {
        let entitledStatus: Bool
        switch snapshot.status {
        case .active, .trialing: entitledStatus = true
        case .inGracePeriod: entitledStatus = settings.entitleDuringGracePeriod
        case .canceled: entitledStatus = (snapshot.currentPeriodEndAt ?? .distantPast) > now
        case .pending, .onHold, .paused, .expired, .revoked: entitledStatus = false
        }
        return EntitlementProjection(
            billingAccountId: snapshot.billingAccountId, planId: snapshot.planId,
            isActive: entitledStatus && snapshot.billingAccountId != nil,
            validFrom: snapshot.currentPeriodStartAt, validUntil: snapshot.currentPeriodEndAt)
    }

    /// A claimed-or-not Google purchase still to acknowledge; never a PENDING (unpaid) one.
    static func needsAcknowledgement(_ snapshot: SubscriptionSnapshot) -> Bool {
        snapshot.provider == .google && snapshot.acknowledgementStatus == .pending
            && ![.pending, .expired, .revoked].contains(snapshot.status)
    }
}

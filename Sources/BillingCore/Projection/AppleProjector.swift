import Foundation

/// Projects an Apple store state (notification and/or status entry) onto the subscription model.
struct AppleProjector {
    let current: SubscriptionSnapshot?
    let state: AppleStoreState
    let trigger: ProjectionTrigger
    let resolved: ResolvedReferences

    func draft() throws(ProjectionError) -> ProjectionDraft {
        let facts = try AppleFacts(state: state)
        if let known = current?.apple?.originalTransactionId, known != facts.originalTransactionId {
            throw .identityMismatch(expected: known, actual: facts.originalTransactionId)
        }
        let account = try OwnershipRules.billingAccount(
            current: current, tokenAccount: resolved.tokenAccount, trigger: trigger, provider: .apple,
            identifier: facts.originalTransactionId)
        let plan = try OwnershipRules.plan(resolved.plan, current: current, productId: facts.transaction.productId)
        let decision = AppleClassifier.classify(state.notification, facts: facts, current: current)
        if decision.keepCurrentState, let current {
            return .keep(current, stateTime: facts.stateTime, label: decision.label, environment: facts.environment)
        }
        let snapshot = buildSnapshot(facts: facts, decision: decision, account: account, planId: plan.planId)
        let rows = AppleRows(facts: facts, snapshot: snapshot, trigger: trigger, rawPayload: state.rawPayload, period: plan.period)
        var draft = ProjectionDraft(stateTime: facts.stateTime, snapshot: snapshot, eventType: decision.eventType,
                                    eventLabel: decision.label, churnReason: decision.churnReason,
                                    environment: facts.environment)
        draft.transactions = rows.records(decision: decision, current: current)
        draft.stateTimeIsQueryTime = state.notification == nil
        let prices = ApplePriceChanges(facts: facts, status: snapshot.status, current: current)
        draft.snapshot.openPriceChange = prices.open
        draft.priceChange = prices.upsert(closingKey: rows.eventKey(for: .priceChangeCanceled, suffix: ""))
        draft.history = HistoryFacts(
            trialEndsAt: facts.isTrial ? facts.expiresAt : nil, trialSeen: facts.isTrial,
            cancellation: decision.cancellationAt.flatMap { at in snapshot.cancelAt.map { (periodEnd: $0, at: at) } },
            revokedToken: nil)
        draft.trialAlreadyConsumed = facts.isTrial && current == nil && (resolved.tokenAccount?.hasHadTrial ?? false)
        if Self.isOlderThanStored(facts, notification: state.notification, current: current) {
            // An earlier transaction served as the latest: only its own charge row is genuine history; every event the
            // comparison with the newer stored state would derive (price change, cancellation, expiry) is not.
            draft.contentOlderThanStored = true
            draft.transactions = draft.transactions.filter { $0.transactionKey == facts.chargeKey }
            draft.history.cancellation = nil
        }
        return draft
    }

    /// True when a state without a notification (a re-query's latest transaction) shows a transaction that began
    /// before the stored period: Apple orders an original transaction's renewals by purchaseDate, so the store
    /// cannot have moved back, and the answer is an older state whatever its signedDate says. (A notification may
    /// legitimately carry an earlier transaction, e.g. a refund of a past period; it is ordered by its own signedDate.)
    static func isOlderThanStored(_ facts: AppleFacts, notification: ResponseBodyV2DecodedPayload?,
                                  current: SubscriptionSnapshot?) -> Bool {
        guard notification == nil, let current, current.apple?.latestTransactionId != facts.transactionId,
              let stored = current.currentPeriodStartAt, let purchased = facts.transaction.purchaseDate?.date else { return false }
        return purchased < stored
    }

    /// The new subscription state: every field from this state, plus the history facts carried over.
    func buildSnapshot(facts: AppleFacts, decision: AppleDecision, account: String?, planId: String) -> SubscriptionSnapshot {
        let autoRenew = facts.autoRenew ?? current?.autoRenew ?? true
        let status = decision.status
        let periodEnd: Date?
        switch status {
        case .inGracePeriod, .onHold: periodEnd = facts.graceEndsAt ?? facts.expiresAt
        default: periodEnd = facts.expiresAt
        }
        let cancelAt = autoRenew ? nil : facts.expiresAt
        var canceledAt: Date?
        if status == .revoked {
            canceledAt = facts.transaction.revocationDate?.date
        } else if !autoRenew {
            let sameCancellation = current?.autoRenew == false && current?.cancelAt == cancelAt
            canceledAt = Instants.latest(decision.cancellationAt, sameCancellation ? current?.canceledAt : nil)
        }
        let accountTrial = resolved.tokenAccount?.hasHadTrial ?? false
        return SubscriptionSnapshot(
            id: current?.id, provider: .apple, billingAccountId: account, planId: planId,
            productId: facts.transaction.productId, status: status, acknowledgementStatus: .notRequired,
            isTestPurchase: facts.environment == .sandbox, autoRenew: autoRenew,
            currentPrice: facts.isFreePeriod ? nil : facts.price, currentPeriodStartAt: facts.transaction.purchaseDate?.date,
            currentPeriodEndAt: periodEnd, trialEndsAt: facts.isTrial ? facts.expiresAt : current?.trialEndsAt,
            cancelAt: cancelAt, canceledAt: canceledAt, lastVerifiedAt: current?.lastVerifiedAt,
            lastStoreStateAt: current?.lastStoreStateAt,
            apple: AppleSubscriptionIdentity(
                originalTransactionId: facts.originalTransactionId, latestTransactionId: facts.transactionId,
                appAccountToken: facts.transaction.appAccountToken ?? facts.renewalInfo?.appAccountToken),
            google: nil, openPriceChange: nil,
            accountHasHadTrial: (current?.accountHasHadTrial ?? false) || accountTrial || facts.isTrial)
    }
}

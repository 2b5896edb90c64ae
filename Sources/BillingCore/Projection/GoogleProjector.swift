import Foundation

/// Projects a Google store state (re-queried SubscriptionPurchaseV2, RTDN, void) onto the subscription model.
struct GoogleProjector {
    let current: SubscriptionSnapshot?
    let state: GoogleStoreState
    let trigger: ProjectionTrigger
    let resolved: ResolvedReferences

    func draft() throws(ProjectionError) -> ProjectionDraft {
        let account = try OwnershipRules.billingAccount(
            current: current, tokenAccount: resolved.tokenAccount, trigger: trigger, provider: .google,
            identifier: state.purchaseToken)
        guard let purchase = state.purchase else { return try voidedOnly(account: account) }
        let plan = try OwnershipRules.plan(resolved.plan, current: current, productId: purchase.items.first?.productId)
        let facts = try GoogleFacts(state: state, purchase: purchase, now: trigger.now, billingPeriod: plan.period)
        let notification = state.notification?.subscriptionNotification
        let stepUpFirst = notification?.notificationTypeValue == .priceStepUpConsentUpdated
        let provisional = facts.stateStatus ?? current?.status ?? .expired
        let provisionalChange = try GooglePriceChanges(facts: facts, status: provisional, current: current,
                                                       preferStepUp: stepUpFirst).derived()
        var priceEvent = provisionalChange.map { GooglePriceChanges.eventType(for: $0.state) }
        if stepUpFirst, priceEvent == .priceChanged { priceEvent = .priceChangeAccepted }
        var decision = try GoogleClassifier.classify(facts: facts, notification: notification, current: current,
                                                     priceEvent: priceEvent)
        if decision.keepCurrentState, let current {
            return .keep(current, stateTime: facts.stateTime, label: decision.label, environment: facts.environment)
        }
        let change = try GooglePriceChanges(facts: facts, status: decision.status, current: current,
                                            preferStepUp: stepUpFirst).derived()
        if let change, decision.eventType != nil, [.priceChangePending, .priceChangeAccepted, .priceChangeCanceled,
                                                   .priceChanged].contains(decision.eventType) {
            decision.keySuffix = ":\(change.currencyCode):\(change.newAmountMicros)"
        }
        var snapshot = buildSnapshot(facts: facts, decision: decision, account: account, planId: plan.planId)
        snapshot.openPriceChange = change.flatMap { $0.state.isOpen ? $0 : nil }
        snapshot.currentPrice = price(facts: facts, open: snapshot.openPriceChange)
        var draft = ProjectionDraft(stateTime: facts.stateTime, snapshot: snapshot, eventType: decision.eventType,
                                    eventLabel: decision.label, churnReason: decision.churnReason,
                                    environment: facts.environment)
        draft.transactions = try GoogleRows(facts: facts, snapshot: snapshot, trigger: trigger, rawPayload: state.rawPayload,
                                        current: current)
            .records(decision: decision, current: current)
        draft.stateTimeIsQueryTime = state.notification == nil && facts.voided == nil
        draft.priceChange = GooglePriceChanges.upsert(change, current: current)
        draft.tokenChanges = [GoogleTokenChange(purchaseToken: facts.token, linkedPurchaseToken: purchase.linkedPurchaseToken,
                                                isCurrent: true)]
        if let linked = purchase.linkedPurchaseToken {
            draft.tokenChanges.append(GoogleTokenChange(purchaseToken: linked, linkedPurchaseToken: nil, isCurrent: false))
        }
        let trialEnd = facts.trialItem?.expiryTime?.date
        draft.history = HistoryFacts(trialEndsAt: trialEnd, trialSeen: trialEnd != nil, cancellation: nil,
                                     revokedToken: decision.status == .revoked ? facts.token : nil)
        draft.trialAlreadyConsumed = trialEnd != nil && current == nil && (resolved.tokenAccount?.hasHadTrial ?? false)
        return draft
    }

    /// The state's recurring price; while a change is open a price equal to its new price is not trusted.
    func price(facts: GoogleFacts, open: SubscriptionPriceChange?) -> Money? {
        guard let recurring = facts.recurringPrice else { return current?.currentPrice }
        if let open, open.currencyCode == recurring.currencyCode, open.newAmountMicros == recurring.micros,
           open.oldAmountMicros == recurring.micros || open.oldAmountMicros == nil {
            return current?.currentPrice ?? recurring
        }
        return recurring
    }

    func buildSnapshot(facts: GoogleFacts, decision: GoogleDecision, account: String?, planId: String) -> SubscriptionSnapshot {
        let status = decision.status
        let autoRenew = facts.autoRenew
        let cancelTime = facts.purchase.canceledStateContext?.userInitiatedCancellation?.cancelTime?.date
        let trialEnd = facts.trialItem?.expiryTime?.date
        let accountTrial = resolved.tokenAccount?.hasHadTrial ?? false
        return SubscriptionSnapshot(
            id: current?.id, provider: .google, billingAccountId: account, planId: planId,
            productId: facts.primary.productId, status: status,
            acknowledgementStatus: facts.acknowledgement(for: status, current: current),
            isTestPurchase: facts.purchase.isTestPurchase, autoRenew: autoRenew, currentPrice: nil,
            currentPeriodStartAt: facts.shownPeriodStart, currentPeriodEndAt: facts.expiresAt,
            trialEndsAt: trialEnd ?? current?.trialEndsAt,
            cancelAt: autoRenew || status == .pending ? nil : facts.expiresAt,
            canceledAt: autoRenew ? nil : cancelTime, lastVerifiedAt: current?.lastVerifiedAt,
            lastStoreStateAt: current?.lastStoreStateAt, apple: nil,
            google: GoogleTokenIdentity(purchaseToken: facts.token, linkedPurchaseToken: facts.purchase.linkedPurchaseToken),
            openPriceChange: nil,
            accountHasHadTrial: (current?.accountHasHadTrial ?? false) || accountTrial || trialEnd != nil)
    }

    /// A void whose token can no longer be queried: record the refund and revoke a still-live subscription.
    func voidedOnly(account: String?) throws(ProjectionError) -> ProjectionDraft {
        guard let void = GoogleVoid(state) else { throw .incompleteStoreState("no subscriptionsv2 state for the token") }
        guard let current else { throw .incompleteStoreState("voided purchase for a subscription the database does not know") }
        guard let orderId = void.orderId else { throw .incompleteStoreState("voided purchase lacks orderId") }
        let time = void.time ?? trigger.now
        var snapshot = current
        snapshot.billingAccountId = account
        if ![.expired, .revoked].contains(current.status) {
            snapshot.status = .revoked
            snapshot.autoRenew = false
            snapshot.cancelAt = nil
            snapshot.canceledAt = time
        }
        let record = BillingTransactionRecord(
            transactionKey: "GOOGLE:\(state.purchaseToken):\(orderId):REFUNDED", provider: .google, eventType: .refunded,
            effectiveAt: time, expiresAt: current.currentPeriodEndAt, orderId: orderId, isTest: current.isTestPurchase,
            churnReason: .refund, inboundEventId: trigger.source.inboundEventId, rawPayload: state.rawPayload,
            refund: GoogleRows.refundDetails(voided: void, refundedKey: "GOOGLE:\(state.purchaseToken):\(orderId)"))
        var draft = ProjectionDraft(stateTime: time, snapshot: snapshot, eventType: .refunded, eventLabel: "GOOGLE:VOIDED",
                                    churnReason: .refund, environment: current.isTestPurchase ? .sandbox : .production)
        draft.transactions = [record]
        draft.history.revokedToken = snapshot.status == .revoked ? state.purchaseToken : nil
        return draft
    }
}

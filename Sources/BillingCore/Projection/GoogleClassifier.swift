/// The Google RTDN mapping table; subscriptionState from subscriptionsv2 is the truth for the status.
enum GoogleClassifier {
    static func classify(facts: GoogleFacts, notification: SubscriptionNotification?, current: SubscriptionSnapshot?,
                         priceEvent: BillingEventType?) throws(ProjectionError) -> GoogleDecision {
        let rawType = notification?.rawNotificationType
        let typeName = notification?.notificationTypeValue.map { "\($0)" } ?? "unknown"
        var label = rawType.map { "GOOGLE:\($0) \(typeName)" } ?? (facts.voided != nil ? "GOOGLE:VOIDED" : "GOOGLE:REQUERY")
        let currentToken = current?.google?.purchaseToken
        let linked = facts.purchase.linkedPurchaseToken
        let state = facts.purchase.subscriptionStateValue
        if let currentToken, currentToken != facts.token, linked != currentToken {
            return GoogleDecision(status: .expired, label: label + " (superseded token)", keepCurrentState: true)
        }
        if let currentToken, linked == currentToken, state == .pending || state == .pendingPurchaseCanceled {
            // A pending replacement (upgrade/downgrade) or its cancellation: the linked contract stays current.
            return GoogleDecision(status: .expired, label: label + " (pending replacement)", keepCurrentState: true)
        }
        guard var status = facts.stateStatus else {
            if current != nil { return GoogleDecision(status: .expired, label: label, keepCurrentState: true) }
            throw .incompleteStoreState("unknown subscriptionState \(facts.purchase.rawSubscriptionState ?? "(none)")")
        }
        let sameTokenRevoked = current?.status == .revoked && currentToken == facts.token
        if status == .expired, rawType == GoogleNotificationType.revoked.rawValue || sameTokenRevoked || facts.isVoidOfLatestOrder {
            status = .revoked
        }
        var decision = GoogleDecision(status: status, label: label)
        if [.canceled, .expired].contains(status) { decision.churnReason = facts.cancellationReason }
        if status == .revoked { decision.churnReason = .refund }
        if let voided = facts.voided, rawType == nil {
            decision.eventType = .refunded
            decision.eventKey = "GOOGLE:\(facts.token):\(voided.orderId ?? "unknown-order"):REFUNDED"
            decision.churnReason = .refund
            decision.eventRow = true
            return decision
        }
        guard let rawType else {
            return requery(facts: facts, status: status, current: current, decision: decision)
        }
        switch GoogleNotificationType(rawValue: rawType) {
        case .recovered?: decision.chargeEventType = .recovered
        case .renewed?: decision.chargeEventType = .renewed
        case .purchased?: decision.chargeEventType = .purchased
        case .canceled?: decision.eventType = .canceled
        case .onHold?: decision.eventType = .enteredOnHold
        case .inGracePeriod?: decision.eventType = .enteredGracePeriod
        case .restarted?: decision.eventType = .restarted
        case .priceChangeConfirmed?: decision.eventType = .priceChangeAccepted
        case .paused?: decision.eventType = .paused
        case .revoked?: decision.eventType = .revoked
        case .expired?: decision.eventType = .expired
        case .priceChangeUpdated?, .priceStepUpConsentUpdated?: decision.eventType = priceEvent
        case .deferred?, .pauseScheduleChanged?, .pendingPurchaseCanceled?: break
        case .itemsChanged?, .cancellationScheduled?, nil:
            // Out of scope or unknown: record only. An unknown subscription is projected from its state.
            if current != nil { return GoogleDecision(status: status, label: label, keepCurrentState: true) }
            label += " (projected from state)"
            return requery(facts: facts, status: status, current: nil, decision: GoogleDecision(status: status, label: label))
        }
        if let charge = decision.chargeEventType { decision.eventType = charge }
        decision.eventRow = decision.eventType != nil && decision.chargeEventType == nil
        return decision
    }

    /// A state seen without a notification: the event follows from the transition.
    static func requery(facts: GoogleFacts, status: SubscriptionStatus, current: SubscriptionSnapshot?,
                        decision: GoogleDecision) -> GoogleDecision {
        var decision = decision
        let periodMoved = current?.currentPeriodEndAt != facts.expiresAt && [.active, .trialing, .canceled].contains(status)
        let newCharge = current == nil || periodMoved
        let (event, isCharge) = TransitionEvents.event(
            from: current, to: status, autoRenew: facts.autoRenew, newCharge: newCharge,
            isInitialCharge: !facts.isRenewal(facts.primary), revokeType: .revoked)
        decision.eventType = event
        if isCharge { decision.chargeEventType = event }
        decision.eventRow = event != nil && !isCharge
        if current == nil, let reached = firstSightEvent(status) {
            decision.eventType = reached
            decision.eventRow = true
        }
        return decision
    }

    /// The event that took a subscription first seen in a state other than live to that state.
    ///
    /// A first sight records the charge the answer shows and, beside it, the state the store reports
    /// (so a backfilled expiry counts as churn); it never infers a later state the store has not reported
    /// (CANCELED with its period over stays CANCELED until an answer says EXPIRED). REVOKED and PENDING
    /// are handled by `TransitionEvents` (revocation row; no charge while unpaid).
    static func firstSightEvent(_ status: SubscriptionStatus) -> BillingEventType? {
        switch status {
        case .expired: return .expired
        case .onHold: return .enteredOnHold
        case .inGracePeriod: return .enteredGracePeriod
        case .canceled: return .canceled
        case .paused: return .paused
        case .active, .trialing, .revoked, .pending: return nil
        }
    }
}

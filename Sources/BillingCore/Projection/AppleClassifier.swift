import Foundation

/// The Apple V2 mapping table, row by row.
enum AppleClassifier {
    /// Maps the notification type and subtype (or their absence) to status and event.
    static func classify(_ notification: ResponseBodyV2DecodedPayload?, facts: AppleFacts,
                         current: SubscriptionSnapshot?) -> AppleDecision {
        guard let notification else { return requery(facts: facts, current: current, label: "APPLE:REQUERY") }
        let rawType = notification.rawNotificationType ?? "(none)"
        let label = "APPLE:" + rawType + (notification.rawSubtype.map { "/" + $0 } ?? "")
        let subtype = notification.subtypeValue
        let noSubtype = notification.rawSubtype == nil
        var decision = AppleDecision(status: facts.derivedStatus, eventType: nil, label: label)
        switch notification.notificationTypeValue {
        case .subscribed? where subtype == .initialBuy || subtype == .resubscribe:
            decision.status = facts.activeStatus
            decision.eventType = subtype == .initialBuy ? .purchased : .restarted
            decision.chargeEventType = decision.eventType
        case .didRenew? where noSubtype || subtype == .billingRecovery:
            decision.status = facts.activeStatus
            decision.eventType = noSubtype ? .renewed : .recovered
            decision.chargeEventType = decision.eventType
        case .didFailToRenew? where subtype == .gracePeriod:
            decision.status = .inGracePeriod
            decision.eventType = .enteredGracePeriod
        case .didFailToRenew? where noSubtype:
            decision.status = facts.retryStatus
            decision.eventType = [.inGracePeriod: .enteredGracePeriod, .onHold: .enteredOnHold][decision.status]
            decision.billingRetryRow = decision.eventType == nil
        case .gracePeriodExpired?:
            decision.status = .onHold
            decision.eventType = .enteredOnHold
        case .expired?:
            decision.status = .expired
            decision.eventType = .expired
            decision.churnReason = expiryReason(subtype) ?? facts.intentChurnReason ?? .other
        case .didChangeRenewalStatus? where subtype == .autoRenewDisabled:
            decision.eventType = .canceled
            decision.churnReason = .voluntary
            decision.cancellationAt = facts.stateTime
        case .didChangeRenewalStatus? where subtype == .autoRenewEnabled:
            decision.eventType = .restarted
        case .didChangeRenewalPref? where noSubtype || subtype == .upgrade || subtype == .downgrade:
            decision.eventType = .productChanged
            if subtype == .upgrade {
                // An upgrade takes effect at once: the notification carries the new charge.
                decision.chargeEventType = .productChanged
            } else {
                decision.keySuffix = ":" + (facts.renewalInfo?.autoRenewProductId ?? facts.transaction.productId ?? "")
            }
        case .priceIncrease? where subtype == .pending || subtype == .accepted:
            decision.eventType = subtype == .pending ? .priceChangePending : .priceChangeAccepted
            decision.keySuffix = facts.renewalPrice.map { ":\($0.currencyCode):\($0.micros)" } ?? ""
        case .refund?:
            decision.status = .revoked
            decision.eventType = .refunded
            decision.churnReason = .refund
        case .revoke?:
            decision.status = .revoked
            decision.eventType = .revoked
            decision.churnReason = .revoked
        case .refundReversed?:
            // The App Store reinstated the transaction: its refreshed data no longer carries a
            // revocation, so the status is re-derived; there is no BillingEventType for a reversal.
            decision.status = facts.derivedStatus
        default:
            // REFUND_DECLINED, types outside the table and unknown types or subtypes: record only.
            decision.keepCurrentState = true
            if current == nil {
                var derived = requery(facts: facts, current: nil, label: label)
                derived.label = label
                return derived
            }
        }
        decision.eventRow = decision.eventType != nil && decision.chargeEventType == nil
        return decision
    }

    /// A state seen without a notification: status from the state, event from the transition.
    static func requery(facts: AppleFacts, current: SubscriptionSnapshot?, label: String) -> AppleDecision {
        let status = facts.derivedStatus
        let autoRenew = facts.autoRenew ?? current?.autoRenew ?? true
        let newCharge = current?.apple?.latestTransactionId != facts.transactionId
        let (event, isCharge) = TransitionEvents.event(
            from: current, to: status, autoRenew: autoRenew, newCharge: newCharge,
            isInitialCharge: facts.isInitialCharge, revokeType: facts.revokeEventType)
        var decision = AppleDecision(status: status, eventType: event, label: label)
        decision.billingRetryRow = event == nil && status == .active && current != nil
            && facts.renewalInfo?.isInBillingRetryPeriod == true && facts.graceEndsAt == nil
        if isCharge { decision.chargeEventType = event }
        decision.eventRow = event != nil && !isCharge
        switch status {
        case .expired: decision.churnReason = facts.intentChurnReason ?? .other
        case .revoked: decision.churnReason = facts.revokeEventType == .revoked ? .revoked : .refund
        default: if event == .canceled { decision.churnReason = .voluntary }
        }
        return decision
    }

    /// The churn reason an EXPIRED subtype states.
    static func expiryReason(_ subtype: AppleNotificationSubtype?) -> ChurnReason? {
        switch subtype {
        case .voluntary?: return .voluntary
        case .billingRetry?: return .billingFailure
        case .priceIncrease?: return .priceIncreaseNotConsented
        case .productNotForSale?: return .productNotForSale
        default: return nil
        }
    }
}

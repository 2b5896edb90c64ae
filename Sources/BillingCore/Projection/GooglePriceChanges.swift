import Foundation

/// Google price changes from `priceChangeDetails` (or `priceStepUpConsentDetails`) of the primary line item.
///
/// OUTSTANDING → PENDING, CONFIRMED → ACCEPTED, APPLIED → APPLIED, CANCELED → CANCELED; an open change
/// of a canceled or expired subscription (opt-in not accepted) closes as CANCELED. Terminal states are
/// only emitted to close an open row, since Google keeps the last change in every later response.
struct GooglePriceChanges {
    let facts: GoogleFacts
    let status: SubscriptionStatus
    let current: SubscriptionSnapshot?
    let preferStepUp: Bool

    /// The change this state shows, in any state.
    func derived() throws(ProjectionError) -> SubscriptionPriceChange? {
        let plan = facts.primary.autoRenewingPlan
        let fromDetails = try details(plan?.priceChangeDetails)
        let fromStepUp = try stepUp(plan?.priceStepUpConsentDetails)
        guard var change = preferStepUp ? (fromStepUp ?? fromDetails) : (fromDetails ?? fromStepUp) else { return nil }
        if [.canceled, .expired, .revoked].contains(status), change.state.isOpen {
            change.state = .canceled
            change.stateAt = endedAt
        }
        if change.state.isOpen, let price = facts.recurringPrice, price.currencyCode == change.currencyCode {
            change.oldAmountMicros = price.micros
        } else if !change.state.isOpen {
            change.oldAmountMicros = current?.openPriceChange?.oldAmountMicros
        }
        if change.state == .applied { change.effectiveAt = facts.periodStart ?? facts.stateTime }
        change.sourceEventKey = facts.anchorKey + ":" + Self.eventType(for: change.state).rawValue
            + ":\(change.currencyCode):\(change.newAmountMicros)"
        return change
    }

    /// The store's instant at which an open change stopped being able to apply because the subscription ended, read
    /// from the purchase so every path (notification, re-query, acknowledgement rescue, voided sweep) dates it alike:
    /// the user's `cancelTime`, a voided purchase's void time, else the `expiryTime` when already past. Nil (the
    /// assembler's `stateTime`) when the purchase names none.
    var endedAt: Date? {
        switch status {
        case .canceled:
            return facts.purchase.canceledStateContext?.userInitiatedCancellation?.cancelTime?.date
        case .revoked:
            return facts.voided?.time ?? facts.expiresAt.flatMap { $0 <= facts.stateTime ? $0 : nil }
        default:
            return facts.expiresAt.flatMap { $0 <= facts.stateTime ? $0 : nil }
        }
    }

    func details(_ details: SubscriptionItemPriceChangeDetails?) throws(ProjectionError) -> SubscriptionPriceChange? {
        guard let details, let mode = details.priceChangeModeValue?.mode, let state = details.priceChangeStateValue?.state,
              let new = try Amounts.convert({ () throws(MoneyError) in try details.newPrice?.money() }) else { return nil }
        return SubscriptionPriceChange(provider: .google, mode: mode, state: state, currencyCode: new.currencyCode,
                                       oldAmountMicros: nil, newAmountMicros: new.micros,
                                       expectedChargeAt: details.expectedNewPriceChargeTime?.date)
    }

    func stepUp(_ consent: PriceStepUpConsentDetails?) throws(ProjectionError) -> SubscriptionPriceChange? {
        guard let consent, let state = consent.stateValue?.state,
              let new = try Amounts.convert({ () throws(MoneyError) in try consent.newPrice?.money() }) else { return nil }
        return SubscriptionPriceChange(provider: .google, mode: .priceIncrease, state: state, currencyCode: new.currencyCode,
                                       oldAmountMicros: nil, newAmountMicros: new.micros)
    }

    /// The upsert for the writer: an open change, or a terminal one closing the stored open change.
    static func upsert(_ change: SubscriptionPriceChange?, current: SubscriptionSnapshot?) -> SubscriptionPriceChange? {
        guard let change else { return nil }
        return change.state.isOpen || current?.openPriceChange != nil ? change : nil
    }

    /// The BillingEventType of a price-change state.
    static func eventType(for state: PriceChangeState) -> BillingEventType {
        switch state {
        case .pending: return .priceChangePending
        case .accepted: return .priceChangeAccepted
        case .applied: return .priceChanged
        case .canceled: return .priceChangeCanceled
        }
    }
}

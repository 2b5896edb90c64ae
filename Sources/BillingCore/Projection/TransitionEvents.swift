/// The billing event implied by a state change seen without a notification (re-query).
enum TransitionEvents {
    /// - Returns: the event and whether it is the charge of a new transaction/order.
    static func event(from current: SubscriptionSnapshot?, to status: SubscriptionStatus, autoRenew: Bool,
                      newCharge: Bool, isInitialCharge: Bool, revokeType: BillingEventType) -> (BillingEventType?, Bool) {
        guard let current else {
            if status == .revoked { return (revokeType, false) }
            return (isInitialCharge ? .purchased : .renewed, true)
        }
        if status != current.status {
            switch status {
            case .inGracePeriod: return (.enteredGracePeriod, false)
            case .onHold: return (.enteredOnHold, false)
            case .expired: return (.expired, false)
            case .revoked: return (revokeType, false)
            case .paused: return (.paused, false)
            case .canceled: return (.canceled, false)
            case .pending: return (nil, false)
            case .active, .trialing:
                switch current.status {
                case .inGracePeriod, .onHold: return (.recovered, newCharge)
                case .expired, .revoked, .canceled: return (.restarted, newCharge)
                case .paused: return (.resumed, false)
                case .pending: return (.purchased, newCharge)
                case .active, .trialing: break
                }
            }
        }
        if newCharge { return (isInitialCharge ? .purchased : .renewed, true) }
        if autoRenew != current.autoRenew { return (autoRenew ? .restarted : .canceled, false) }
        return (nil, false)
    }
}

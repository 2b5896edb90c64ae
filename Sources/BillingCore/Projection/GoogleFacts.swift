import Foundation

/// What a SubscriptionPurchaseV2 says, independent of the notification type.
struct GoogleFacts {
    let token: String
    let purchase: SubscriptionPurchaseV2
    /// The line item with the latest expiry (the one that defines the period).
    let primary: SubscriptionPurchaseLineItem
    let stateTime: Date
    /// The mapped plan's billing period; nil when the product is unmapped.
    let billingPeriod: BillingPeriod?
    let voided: GoogleVoid?
    let recurringPrice: Money?
    /// When the paid period ended, as the projected notification states it: the `eventTime` of a
    /// SUBSCRIPTION_IN_GRACE_PERIOD notification projected with an IN_GRACE_PERIOD answer (Google sends it when the
    /// renewal fails, at the paid period's end); nil for any other answer.
    let graceEnteredAt: Date?

    init(state: GoogleStoreState, purchase: SubscriptionPurchaseV2, now: Date, billingPeriod: BillingPeriod?) throws(ProjectionError) {
        guard let first = purchase.items.first else { throw .incompleteStoreState("subscription has no line items") }
        token = state.purchaseToken
        self.purchase = purchase
        primary = purchase.items.reduce(first) { best, item in
            (item.expiryTime ?? .init(date: .distantPast)) > (best.expiryTime ?? .init(date: .distantPast)) ? item : best
        }
        voided = GoogleVoid(state)
        stateTime = state.notification?.eventTime ?? voided?.time ?? now
        let graceNotified = state.notification?.subscriptionNotification?.notificationTypeValue == .inGracePeriod
        graceEnteredAt = graceNotified && purchase.subscriptionStateValue == .inGracePeriod ? state.notification?.eventTime : nil
        self.billingPeriod = billingPeriod
        let plan = primary.autoRenewingPlan
        recurringPrice = try Amounts.convert { () throws(MoneyError) in try plan?.recurringPrice?.money() }
    }

    var environment: StoreEnvironment { purchase.isTestPurchase ? .sandbox : .production }
    var trialItem: SubscriptionPurchaseLineItem? { purchase.items.first { $0.isFreeTrial } }
    var autoRenew: Bool { purchase.items.contains { $0.autoRenewingPlan?.autoRenewEnabled == true } }
    var expiresAt: Date? { primary.expiryTime?.date }
    var isVoidOfLatestOrder: Bool { voided != nil && voided?.orderId == orderId(primary) }

    /// False in grace, on hold and after a billing failure: expiryTime is then the end of the access Google extends
    /// beyond the paid period, and the paid period itself is not in the answer. False while pending and for a
    /// cancelled pending purchase: nothing was paid, whatever `expiryTime` a line item carries.
    var showsPaidPeriod: Bool {
        switch purchase.subscriptionStateValue {
        case .inGracePeriod?, .onHold?, .pending?, .pendingPurchaseCanceled?: return false
        case .expired?: return purchase.canceledStateContext?.systemInitiatedCancellation == nil
        default: return true
        }
    }

    /// The ID of an item's latest successful order (see `GoogleSuccessfulOrder`); nil if unknown.
    func orderId(_ item: SubscriptionPurchaseLineItem) -> String? {
        GoogleSuccessfulOrder.of(item, in: purchase)?.text
    }

    /// True when an item's latest successful order is a renewal order (`GPA.…..N`).
    func isRenewal(_ item: SubscriptionPurchaseLineItem) -> Bool {
        GoogleSuccessfulOrder.of(item, in: purchase)?.isRenewal ?? false
    }

    /// `GOOGLE:{token}:{latest successful order}`, else `GOOGLE:{token}:{productId}:{expiryTime}`; nil if neither.
    func chargeKey(_ item: SubscriptionPurchaseLineItem) -> String? {
        if let order = orderId(item) { return "GOOGLE:\(token):\(order)" }
        guard let product = item.productId, let expiry = item.expiryTime else { return nil }
        return "GOOGLE:\(token):\(product):\(expiry.canonical)"
    }

    /// The charge key of the current period; non-charge event keys extend it.
    var anchorKey: String { chargeKey(primary) ?? "GOOGLE:\(token)" }

    /// The status subscriptionState states (TRIALING when a line item is in a free-trial phase); nil if unknown.
    var stateStatus: SubscriptionStatus? {
        switch purchase.subscriptionStateValue {
        case .active?: return trialItem == nil ? .active : .trialing
        case .canceled?: return .canceled
        case .inGracePeriod?: return .inGracePeriod
        case .onHold?: return .onHold
        case .paused?: return .paused
        case .expired?, .pendingPurchaseCanceled?: return .expired
        case .pending?: return .pending
        case .unspecified?, nil: return nil
        }
    }

    /// Start of the current period. Google exposes none: the signup time for the first order,
    /// else expiryTime minus one ISO billing period of the plan (UTC, month-end clamped), never before the
    /// signup time; in grace/hold this is approximate.
    var periodStart: Date? {
        let signup = purchase.startTime?.date
        guard isRenewal(primary), let expiry = expiresAt, let billingPeriod else { return signup }
        let start = billingPeriod.start(endingAt: expiry)
        guard let signup else { return start }
        return max(start, signup)
    }

    /// When the current renewal order's paid period began, for its charge rows: the latest start whose period ends at
    /// the primary line item's `expiryTime` and that is not after this answer's instant
    /// (`BillingPeriod.start(endingAt:notAfter:)`), never before the signup. Month-end clamping makes `expiryTime` minus one period ambiguous (a recovery of 03-31 20:00,
    /// expiry 04-30 20:00, steps back to 03-30 20:00, before the renewal failed at 03-31 13:00: issue 28, finding 4);
    /// the instant the order was charged is one of the candidates and no answer that shows the order comes before
    /// it, so the charge is never dated before it was bought (nor before the failure it recovers), nor after the
    /// answer that reports it. Reads only this answer and its own instant.
    var chargedPeriodStart: Date? {
        let signup = purchase.startTime?.date
        guard isRenewal(primary), let expiry = expiresAt, let billingPeriod else { return signup }
        let start = billingPeriod.start(endingAt: expiry, notAfter: stateTime)
        guard let signup else { return start }
        return max(start, signup)
    }

    /// Start of the period the subscription row and its entitlement show. In grace `expiryTime` is the grace end, so
    /// `periodStart` (expiryTime minus one period) is an instant where nothing happened (paid 02-01 → 03-01, grace
    /// until 03-08: 02-08), and the entitlement interval would be split there (issue 28, finding 7). When the answer
    /// is projected with its SUBSCRIPTION_IN_GRACE_PERIOD notification, whose `eventTime` is the paid period's end,
    /// the paid period's start is read back from that end exactly as the paid answer read it from its `expiryTime`
    /// (`BillingPeriod.start(endingAt:)`, never before the signup): the grace continues the paid period's interval
    /// to the grace end. A function of this answer and its notification only, so every delivery order gives the same
    /// start. A grace answer seen without that notification (a re-query) cannot know the paid period's end and
    /// keeps `periodStart`.
    var shownPeriodStart: Date? {
        guard let graceEnteredAt, isRenewal(primary), let billingPeriod else { return periodStart }
        let start = billingPeriod.start(endingAt: graceEnteredAt)
        guard let signup = purchase.startTime?.date else { return start }
        return max(start, signup)
    }

    /// Initial purchases and prepaid top-ups need an acknowledgement, renewals none, unpaid purchases never.
    func acknowledgement(for status: SubscriptionStatus, current: SubscriptionSnapshot?) -> AcknowledgementStatus {
        if status == .pending { return .notRequired }
        switch purchase.acknowledgementStateValue {
        case .acknowledged?: return .acknowledged
        case .pending?: return primary.autoRenewingPlan != nil && isRenewal(primary) ? .notRequired : .pending
        case .unspecified?, nil: return current?.acknowledgementStatus ?? .notRequired
        }
    }

    /// Why a canceled or expired subscription churned; opt-in price increases stay distinguishable.
    var cancellationReason: ChurnReason? {
        let context = purchase.canceledStateContext
        if context?.replacementCancellation != nil { return .replaced }
        let details = primary.autoRenewingPlan?.priceChangeDetails
        let optInOpen = details?.priceChangeModeValue == .priceIncrease
            && [.outstanding, .canceled].contains(details?.priceChangeStateValue)
        let stepUpOpen = primary.autoRenewingPlan?.priceStepUpConsentDetails?.stateValue == .pending
        if optInOpen || stepUpOpen { return .priceIncreaseNotConsented }
        if context?.userInitiatedCancellation != nil { return .voluntary }
        if context?.systemInitiatedCancellation != nil { return .billingFailure }
        if context?.developerInitiatedCancellation != nil { return .developer }
        return nil
    }
}

import Foundation

/// What an Apple store state says, independent of the notification type.
struct AppleFacts {
    let transaction: JWSTransactionDecodedPayload
    let renewalInfo: JWSRenewalInfoDecodedPayload?
    let originalTransactionId: String
    let transactionId: String
    /// The state's own instant: notification signedDate, else the newest JWS signedDate.
    let stateTime: Date
    let rawStatus: AppleSubscriptionStatus?
    let price: Money?
    let renewalPrice: Money?
    let environment: StoreEnvironment

    init(state: AppleStoreState) throws(ProjectionError) {
        transaction = state.transaction
        renewalInfo = state.renewalInfo
        guard let original = transaction.originalTransactionId, let id = transaction.transactionId else {
            throw .incompleteStoreState("transaction lacks originalTransactionId or transactionId")
        }
        originalTransactionId = original
        transactionId = id
        let signed = state.notification?.signedDate?.date
            ?? Instants.latest(transaction.signedDate?.date, state.renewalInfo?.signedDate?.date)
        guard let signed else { throw .incompleteStoreState("no signedDate to order the state by") }
        stateTime = signed
        rawStatus = state.statusValue
        let transaction = state.transaction
        let renewal = state.renewalInfo
        price = try Amounts.convert { () throws(MoneyError) in try transaction.priceMoney() }
        renewalPrice = try Amounts.convert { () throws(MoneyError) in try renewal?.renewalPriceMoney() }
        let raw = transaction.rawEnvironment ?? state.notification?.data?.rawEnvironment
        environment = raw.map { AppleEnvironment(rawValue: $0).storeEnvironment } ?? .production
    }

    var chargeKey: String { "APPLE:\(originalTransactionId):\(transactionId)" }
    var isTrial: Bool { transaction.isFreeTrial }
    /// A free period that is not the introductory trial: an offer (an offer code, `offerType` 3; a promotional or
    /// win-back offer) at price 0. Like a trial it sets no current price, so the first paid charge after it is not a
    /// price change; unlike a trial the status is ACTIVE and `trial_ends_at` is not set.
    var isFreePeriod: Bool { isTrial || (transaction.rawOfferType != nil && price?.micros == 0) }
    var expiresAt: Date? { transaction.expiresDate?.date }
    var graceEndsAt: Date? { renewalInfo?.gracePeriodExpiresDate?.date }
    var autoRenew: Bool? { renewalInfo?.isAutoRenewOn }
    var isInitialCharge: Bool { originalTransactionId == transactionId }
    var revokeEventType: BillingEventType { transaction.revocationTypeValue == .familyRevoke ? .revoked : .refunded }

    /// ACTIVE or TRIALING, per the trial rule (offerType 1 and FREE_TRIAL).
    var activeStatus: SubscriptionStatus { isTrial ? .trialing : .active }

    /// The status the state itself implies, as of `stateTime` (used when a row says "resolved from the state").
    var derivedStatus: SubscriptionStatus {
        if transaction.revocationDate != nil { return .revoked }
        switch rawStatus {
        case .active?: return activeStatus
        case .expired?: return .expired
        case .billingGracePeriod?: return .inGracePeriod
        case .revoked?: return .revoked
        case .billingRetry?: return retryStatus
        case nil:
            if renewalInfo?.isInBillingRetryPeriod == true { return retryStatus }
            if let expiresAt, expiresAt <= stateTime { return .expired }
            return activeStatus
        }
    }

    /// Billing retry: in grace → IN_GRACE_PERIOD, after grace → ON_HOLD, no grace period → ACTIVE (retrying).
    var retryStatus: SubscriptionStatus {
        guard let graceEndsAt else { return .active }
        return graceEndsAt > stateTime ? .inGracePeriod : .onHold
    }

    /// The churn reason Apple gives in the renewal info.
    var intentChurnReason: ChurnReason? { renewalInfo?.expirationIntentValue?.churnReason }

    /// The amount a REFUND gave back: price × revocationPercentage / 100000 (full price when absent).
    var refundedAmount: Money? {
        guard let price else { return nil }
        guard let share = transaction.revocationPercentage, share >= 0, share < 100_000 else { return price }
        let (product, overflow) = price.micros.multipliedReportingOverflow(by: Int64(share))
        return overflow ? price : Money(micros: product / 100_000, currencyCode: price.currencyCode)
    }
}

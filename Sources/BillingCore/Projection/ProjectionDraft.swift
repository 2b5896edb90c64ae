import Foundation

/// Facts an older (stale) store state may still contribute: they never depend on which state is newest.
struct HistoryFacts: Sendable, Equatable {
    /// End of the free trial this state shows.
    var trialEndsAt: Date?
    /// The state shows a free trial.
    var trialSeen = false
    /// An auto-renew-off event time and the period end it applies to.
    var cancellation: (periodEnd: Date, at: Date)?
    /// The state revokes this Google token.
    var revokedToken: String?

    static func == (lhs: HistoryFacts, rhs: HistoryFacts) -> Bool {
        lhs.trialEndsAt == rhs.trialEndsAt && lhs.trialSeen == rhs.trialSeen && lhs.revokedToken == rhs.revokedToken
            && lhs.cancellation?.periodEnd == rhs.cancellation?.periodEnd && lhs.cancellation?.at == rhs.cancellation?.at
    }
}

/// A provider projector's result before ordering is applied.
struct ProjectionDraft: Sendable {
    var stateTime: Date
    /// `stateTime` is when the store was asked (a re-query's answer, signed or dated on request), not an instant the
    /// store names for anything that happened.
    var stateTimeIsQueryTime = false
    /// Record-only event for a known subscription: keep its state.
    var keepCurrentState = false
    var snapshot: SubscriptionSnapshot
    var eventType: BillingEventType?
    var eventLabel: String
    var transactions: [BillingTransactionRecord] = []
    var priceChange: SubscriptionPriceChange?
    var tokenChanges: [GoogleTokenChange] = []
    var churnReason: ChurnReason?
    var environment: StoreEnvironment
    var history = HistoryFacts()
    var trialAlreadyConsumed = false
    /// The state's content is older than the stored state even though its own instant is not (e.g. a re-query answered
    /// with an earlier transaction, freshly signed): ordered like a state older than `lastStoreStateAt`.
    var contentOlderThanStored = false

    /// A draft that records nothing and keeps `current` as it is.
    static func keep(_ current: SubscriptionSnapshot, stateTime: Date, label: String, environment: StoreEnvironment) -> ProjectionDraft {
        ProjectionDraft(stateTime: stateTime, keepCurrentState: true, snapshot: current, eventType: nil,
                        eventLabel: label, environment: environment)
    }
}

/// Small date helpers.
enum Instants {
    /// The later of two optional instants.
    static func latest(_ lhs: Date?, _ rhs: Date?) -> Date? {
        switch (lhs, rhs) {
        case let (left?, right?): return max(left, right)
        case let (left?, nil): return left
        case let (nil, right): return right
        }
    }
}

/// Wraps exact money conversion errors.
enum Amounts {
    /// Runs a conversion, mapping `MoneyError` to `ProjectionError.invalidAmount`.
    static func convert(_ body: () throws(MoneyError) -> Money?) throws(ProjectionError) -> Money? {
        do {
            return try body()
        } catch {
            throw .invalidAmount(error)
        }
    }
}

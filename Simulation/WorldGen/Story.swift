/// One store-side happening in a subscription's life (provider-neutral; renderers turn it into payloads).
enum StoryStep: Equatable {
    case pendingStart
    case pendingCanceled
    case purchase(trial: Bool)
    case renew
    case autoRenewOff(system: Bool)
    case autoRenewOn
    case enterGrace(graceEndMs: Int64)
    case enterHold
    case recover
    case expire(reason: ExpireReason)
    case priceNotice(change: Int)
    case priceAccept
    case upgrade(plan: Int)
    case downgradeScheduled(plan: Int)
    case refund(chargeback: Bool)
    case familyRevoke

    /// Why a subscription expired.
    enum ExpireReason: Equatable { case voluntary, billing, priceIncrease }
}

/// A step with its instant and the state after it (plan, price, period end) for the renderers.
struct TimedStep: Equatable {
    let atMs: Int64
    let step: StoryStep
    /// The plan being billed after the step.
    let plan: Int
    /// The price (micros) charged for the current period after the step (0 in a trial).
    let priceMicros: Int64
    /// The current period's end after the step.
    let periodEndMs: Int64
}

/// Everything drawn for one subscription: who, where, what, and its ordered steps up to `asOf`.
struct Story {
    let index: Int
    let isApple: Bool
    let market: Int
    let isTest: Bool
    let familyShared: Bool
    var steps: [TimedStep]
}

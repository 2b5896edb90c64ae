import BillingCore

/// Counts each catalogue price change's cohort from the stories and records every per-subscription transition.
///
/// - affected: subscriptions told of the change (PENDING) or charged the new price on a renewal from the old one
///   at or after `effective_at` (Apple applies decreases without telling).
/// - notified / consented / applied: told, consented (Apple consent, Google opt-in confirmation), first charged anew.
/// - churned_due_to_change: ended with Apple expirationIntent 3 or Google's system cancellation of an unconfirmed
///   opt-in increase (EXPIRED · PRICE_INCREASE).
/// - other_churn: affected subscriptions that ended for another reason (voluntary or billing expiry, refund,
///   revocation) between being told and one billing period after the renewal the change targeted.
/// - baseline_peers: non-test subscriptions of the same store and product outside the change's region, paid at
///   `announced_at`; baseline_churned: those that ended between `announced_at` and one period after `effective_at`.
struct PriceChangeCohorts {
    let catalogue: WorldCatalogue
    let asOfMs: Int64
    private(set) var cohorts: [PriceChangeCohort]
    private(set) var transitions: [PriceChangeTransition] = []
    private var lostTwelfths: [Int64]
    private var gainedTwelfths: [Int64]

    init(catalogue: WorldCatalogue, asOfMs: Int64) {
        self.catalogue = catalogue
        self.asOfMs = asOfMs
        cohorts = catalogue.priceChanges.map { change in
            let plan = catalogue.plans.first { $0.code == change.planCode }
            let product = change.provider == "APPLE" ? plan?.appleProductId ?? ""
                : (plan.map { "\($0.googleProductId)/\($0.googleBasePlanId)" } ?? "")
            return PriceChangeCohort(changeId: change.id, provider: change.provider, productId: product, planCode: change.planCode,
                                     region: change.region, currency: change.currency, oldMicros: change.oldMicros,
                                     newMicros: change.newMicros, mode: change.mode.rawValue,
                                     announcedAt: WorldClock.rfc3339(change.announcedAtMs), effectiveAt: WorldClock.rfc3339(change.effectiveAtMs))
        }
        lostTwelfths = Array(repeating: 0, count: cohorts.count)
        gainedTwelfths = Array(repeating: 0, count: cohorts.count)
    }

    /// Adds one non-test story.
    mutating func add(_ story: Story, subscriptionId: String, timeline: StoryTimeline) {
        var open: Int?
        var declined: Int?
        var touched: [Int: (fromMs: Int64, untilMs: Int64)] = [:]
        var lastPaid: Int64 = 0
        func twelfths(_ plan: Int) -> Int64 { (BillingPeriodMath(catalogue.plans[plan].billingPeriod) ?? .month).monthlyTwelfths }
        func record(_ change: Int, _ state: PriceChangeState, _ at: Int64, _ cause: String = "") {
            transitions.append(PriceChangeTransition(changeId: catalogue.priceChanges[change].id, subscriptionId: subscriptionId,
                                                     state: state, atMs: at, cause: cause))
        }
        func touch(_ change: Int, _ at: Int64, _ target: Int64, _ plan: Int) {
            guard touched[change] == nil else { return }
            let period = BillingPeriodMath(catalogue.plans[plan].billingPeriod) ?? .month
            touched[change] = (at, period.end(from: target))
            cohorts[change].affected += 1
        }
        func ended(_ at: Int64) {
            if let change = open { record(change, .canceled, at, "ended"); open = nil }
            for (change, window) in touched where at >= window.fromMs && at <= window.untilMs { cohorts[change].otherChurn += 1 }
        }
        for step in story.steps {
            switch step.step {
            case .priceNotice(let change):
                record(change, .pending, step.atMs)
                open = change
                cohorts[change].notified += 1
                touch(change, step.atMs, step.periodEndMs, step.plan)
            case .priceAccept:
                if let change = open { record(change, .accepted, step.atMs); cohorts[change].consented += 1 }
            case .autoRenewOff(system: true):
                if let change = open { record(change, .canceled, step.atMs, "declined"); declined = change; open = nil }
            case .renew, .recover:
                let market = catalogue.markets[story.market]
                let change = open ?? catalogue.priceChanges.firstIndex {
                    $0.applies(isApple: story.isApple, market: market, planCode: catalogue.plans[step.plan].code)
                        && lastPaid == $0.oldMicros && step.atMs >= $0.effectiveAtMs
                }
                if let change, step.priceMicros == catalogue.priceChanges[change].newMicros {
                    touch(change, step.atMs, step.atMs, step.plan)
                    record(change, .applied, step.atMs)
                    cohorts[change].applied += 1
                    gainedTwelfths[change] += (step.priceMicros - catalogue.priceChanges[change].oldMicros) * twelfths(step.plan)
                    open = nil
                }
                lastPaid = step.priceMicros
            case .purchase(let trial):
                if !trial { lastPaid = step.priceMicros }
            case .upgrade:
                if let change = open { record(change, .canceled, step.atMs, "replaced"); open = nil }
                lastPaid = step.priceMicros
            case .expire(let reason):
                if reason == .priceIncrease, let change = open ?? declined {
                    if open != nil { record(change, .canceled, step.atMs, "declined") }
                    cohorts[change].churnedDueToChange += 1
                    lostTwelfths[change] += catalogue.priceChanges[change].oldMicros * twelfths(step.plan)
                    open = nil
                } else {
                    ended(step.atMs)
                }
            case .refund, .familyRevoke:
                ended(step.atMs)
            default:
                break
            }
        }
        addBaseline(story, timeline: timeline, touched: Set(touched.keys))
    }

    /// Counts `story` as a baseline peer of every change of its store and product it was not touched by.
    private mutating func addBaseline(_ story: Story, timeline: StoryTimeline, touched: Set<Int>) {
        let market = catalogue.markets[story.market]
        let endMs = story.steps.last.flatMap { last -> Int64? in
            switch last.step {
            case .expire, .refund, .familyRevoke: return last.atMs
            default: return nil
            }
        }
        for (index, change) in catalogue.priceChanges.enumerated() where !touched.contains(index) {
            guard change.provider == (story.isApple ? "APPLE" : "GOOGLE"), change.region != market.googleRegion,
                  let step = story.steps.last(where: { $0.atMs <= change.announcedAtMs }),
                  catalogue.plans[step.plan].code == change.planCode, timeline.twelfths(at: change.announcedAtMs) > 0 else { continue }
            cohorts[index].baselinePeers += 1
            let period = BillingPeriodMath(catalogue.plans[step.plan].billingPeriod) ?? .month
            if let endMs, endMs >= change.announcedAtMs, endMs <= min(asOfMs, period.end(from: change.effectiveAtMs)) {
                cohorts[index].baselineChurned += 1
            }
        }
    }

    /// The cohorts with their MRR sums rounded half to even (once each).
    func finished() -> [PriceChangeCohort] {
        cohorts.indices.map { index in
            var cohort = cohorts[index]
            cohort.mrrLostMicros = Int64(ExactRounding.halfEven(Int128(lostTwelfths[index]), 12))
            cohort.mrrGainedMicros = Int64(ExactRounding.halfEven(Int128(gainedTwelfths[index]), 12))
            return cohort
        }
    }
}

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
/// - baseline_peers / baseline_churned: over the cohort's observed window (its first member's start to the latest
///   member's targeted renewal plus one period, capped at as-of); see `PriceChangeBaseline`.
struct PriceChangeCohorts {
    let catalogue: WorldCatalogue
    let asOfMs: Int64
    private(set) var cohorts: [PriceChangeCohort]
    private(set) var transitions: [PriceChangeTransition] = []
    private var lostTwelfths: [Int64]
    private var gainedTwelfths: [Int64]
    /// Each cohort's observed window: the earliest member start and the latest member window end.
    private var windows: [(startMs: Int64, endMs: Int64)?]
    /// The stories added, with the changes each was touched by (the baseline needs every cohort's window first).
    private var peers: [(story: Story, touched: Set<Int>)] = []

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
        windows = Array(repeating: nil, count: cohorts.count)
    }

    /// Adds one non-test story.
    mutating func add(_ story: Story, subscriptionId: String) {
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
            let window = windows[change] ?? (at, period.end(from: target))
            windows[change] = (min(window.startMs, at), max(window.endMs, period.end(from: target)))
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
        peers.append((story, Set(touched.keys)))
    }

    /// The cohorts with their MRR sums rounded half to even (once each).
    func finished() -> [PriceChangeCohort] {
        cohorts.indices.map { index in
            var cohort = cohorts[index]
            cohort.mrrLostMicros = Int64(ExactRounding.halfEven(Int128(lostTwelfths[index]), 12))
            cohort.mrrGainedMicros = Int64(ExactRounding.halfEven(Int128(gainedTwelfths[index]), 12))
            if let window = windows[index] {
                let baseline = PriceChangeBaseline(catalogue: catalogue, change: index, startMs: window.startMs,
                                                   endMs: min(asOfMs, window.endMs))
                for peer in peers where !peer.touched.contains(index) {
                    switch baseline.count(peer.story) {
                    case .churned: cohort.baselinePeers += 1; cohort.baselineChurned += 1
                    case .stayed: cohort.baselinePeers += 1
                    case .notPeer: break
                    }
                }
            }
            return cohort
        }
    }
}

/// Accumulates the expected metrics subscription by subscription (so batched worlds never hold every story).
///
/// Per account (one subscription story each in this world) and month-end snapshot, the MRR contribution `v`
/// (twelfths of a micro, `StoryTimeline`) is compared with the previous snapshot's `p`: `p = 0 < v` is new, or
/// reactivation when the account contributed at an earlier snapshot; `v = 0 < p` is churn (`p`); `v > p > 0`
/// expansion (`v − p`); `0 < v < p` contraction (`p − v`). Sums stay exact until `finish` rounds each cell once.
struct ExpectedMetricsBuilder {
    let catalogue: WorldCatalogue
    let asOfMs: Int64
    let months: [WorldMonth]
    let fx: WorldFXRates
    private(set) var cells: [CellKey: CellSums] = [:]
    private(set) var cohorts: PriceChangeCohorts
    private(set) var unreachable: [String: [String]] = [:]
    private(set) var lifecycle: ExpectedLifecycle

    /// A cell's key.
    struct CellKey: Hashable, Comparable {
        let month: Int64
        let provider: String
        let currency: String
        static func < (lhs: CellKey, rhs: CellKey) -> Bool {
            (lhs.month, lhs.provider, lhs.currency) < (rhs.month, rhs.provider, rhs.currency)
        }
    }

    /// A cell's exact sums (MRR terms in twelfths of a micro; refunds in micros).
    struct CellSums {
        var mrr: Int64 = 0, start: Int64 = 0, new: Int64 = 0, expansion: Int64 = 0, contraction: Int64 = 0
        var churn: Int64 = 0, reactivation: Int64 = 0
        var paying = 0, newCount = 0, expansionCount = 0, contractionCount = 0, churnCount = 0, reactivationCount = 0
        var refundCount = 0, refundMicros: Int64 = 0, chargebackCount = 0, chargebackMicros: Int64 = 0
        var chargeCount = 0, chargeMicros: Int64 = 0, family = 0
        var graceEntered = 0, graceRecovered = 0, holdEntered = 0, holdRecovered = 0, billingChurned = 0, billingOpen = 0
    }

    init(catalogue: WorldCatalogue, asOfMs: Int64, months: [WorldMonth], fx: WorldFXRates) {
        self.catalogue = catalogue
        self.asOfMs = asOfMs
        self.months = months
        self.fx = fx
        cohorts = PriceChangeCohorts(catalogue: catalogue, asOfMs: asOfMs)
        lifecycle = ExpectedLifecycle(catalogue: catalogue, asOfMs: asOfMs, months: months)
    }

    /// The snapshot instant of `month`: its last millisecond, never past the as-of instant.
    func snapshotMs(_ month: WorldMonth) -> Int64 { min(month.lastMs, asOfMs) }

    /// Adds a generated subscription: its story, and its faults the nightly chain cannot reach (by reason).
    mutating func add(_ subscription: WorldSubscription) {
        let queryable = Set(subscription.googleTokens.filter(\.queryable).map(\.purchaseToken))
        for fault in subscription.faults {
            let reason: String? = !fault.kind.visibleToRequery ? "not_visible_to_requery"
                : (fault.provider == "GOOGLE" && !queryable.contains(fault.storeIdentifier) ? "google_token_outside_query_window" : nil)
            if let reason { unreachable["\(reason):\(fault.kind.rawValue)", default: []].append(fault.subscriptionId) }
        }
        if let story = subscription.story { add(story, subscriptionId: subscription.rows.subscriptionId) }
    }

    /// Adds one story (test purchases are left out of every metric).
    mutating func add(_ story: Story, subscriptionId: String) {
        guard !story.isTest, let first = story.steps.first else { return }
        let provider = story.isApple ? "APPLE" : "GOOGLE"
        let currency = catalogue.markets[story.market].currency
        let timeline = StoryTimeline(story, catalogue: catalogue)
        lifecycle.add(story, timeline: timeline, provider: provider, currency: currency)
        func key(_ ms: Int64) -> CellKey { CellKey(month: WorldMonth(containing: ms).index, provider: provider, currency: currency) }
        var previous: Int64 = 0
        var everPaid = false
        for month in months where month.lastMs >= first.atMs {
            let value = timeline.twelfths(at: snapshotMs(month))
            guard value != 0 || previous != 0 else { continue }
            var cell = cells[CellKey(month: month.index, provider: provider, currency: currency), default: CellSums()]
            cell.mrr += value
            cell.start += previous
            if value > 0 { cell.paying += 1 }
            if previous == 0 {
                if everPaid { cell.reactivation += value; cell.reactivationCount += 1 } else { cell.new += value; cell.newCount += 1 }
            } else if value == 0 {
                cell.churn += previous; cell.churnCount += 1
            } else if value > previous {
                cell.expansion += value - previous; cell.expansionCount += 1
            } else if value < previous {
                cell.contraction += previous - value; cell.contractionCount += 1
            }
            everPaid = everPaid || value > 0
            previous = value
            cells[CellKey(month: month.index, provider: provider, currency: currency)] = cell
        }
        for refund in timeline.refunds {
            cells[key(refund.atMs), default: CellSums()].refundCount += 1
            cells[key(refund.atMs), default: CellSums()].refundMicros += refund.micros
            if refund.chargeback {
                cells[key(refund.atMs), default: CellSums()].chargebackCount += 1
                cells[key(refund.atMs), default: CellSums()].chargebackMicros += refund.micros
            }
            cells[key(refund.chargeAtMs), default: CellSums()].chargeCount += 1
            cells[key(refund.chargeAtMs), default: CellSums()].chargeMicros += refund.micros
        }
        for at in timeline.familyRevocations { cells[key(at), default: CellSums()].family += 1 }
        for failure in timeline.failures {
            var cell = cells[key(failure.atMs), default: CellSums()]
            cell.graceEntered += 1
            if failure.recoveredInGrace { cell.graceRecovered += 1 }
            if failure.enteredHold { cell.holdEntered += 1 }
            if failure.recoveredFromHold { cell.holdRecovered += 1 }
            if failure.churned { cell.billingChurned += 1 }
            if !failure.recoveredInGrace && !failure.recoveredFromHold && !failure.churned { cell.billingOpen += 1 }
            cells[key(failure.atMs)] = cell
        }
        cohorts.add(story, subscriptionId: subscriptionId)
    }
}

extension ExpectedMetricsBuilder {
    /// The builder for a world with `options`: months from the one holding the window start to the as-of month;
    /// exchange rates from the month before (the catalogue's month) to the as-of month.
    static func forWorld(_ options: WorldOptions, catalogue: WorldCatalogue) -> ExpectedMetricsBuilder {
        let asOfMs = WorldClock.ms(options.asOf)
        let first = WorldMonth(containing: WorldClock.addMonths(asOfMs, -Int64(options.months)))
        let last = WorldMonth(containing: asOfMs)
        let fx = WorldFXRates(seed: options.seed, currencies: catalogue.markets.map(\.currency),
                              months: WorldMonth.range(first.previous, last))
        return ExpectedMetricsBuilder(catalogue: catalogue, asOfMs: asOfMs, months: WorldMonth.range(first, last), fx: fx)
    }
}

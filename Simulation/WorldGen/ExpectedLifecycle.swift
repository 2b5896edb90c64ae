/// The world's expected subscriber, trial-conversion, plan-change and cohort figures (issue 30), per month × provider ×
/// currency (one billing account per story in this world), accumulated story by story like `ExpectedMetricsBuilder`.
public struct ExpectedLifecycleRow: Sendable, Hashable, Codable {
    public var month: String
    public var provider: String
    public var currency: String
    /// Subscriptions in each state at the month's snapshot (Reports/subscribers.sql), by `StoryLifecycle.State` name.
    public var states: [String: Int]
    /// Free trials started in the month (UTC), by outcome as of the as-of instant (Reports/trial_conversion.sql).
    public var trials: [String: Int]
    /// Plan changes in the month by type (Reports/plan_change_mix.sql).
    public var planChanges: [String: Int]

    enum CodingKeys: String, CodingKey { case month, provider, currency, states, trials, planChanges = "plan_changes" }
}

/// One cohort (customers whose first paid charge fell in `cohortMonth`) at one month since its start (Reports/cohorts.sql).
public struct ExpectedCohortCell: Sendable, Hashable, Codable {
    public var cohortMonth: String
    public var month: String
    public var provider: String
    public var currency: String
    public var customers: Int
    /// Paying (contributing MRR) at the month's snapshot.
    public var retained: Int
    /// Paid charges less refunds and chargebacks dated in the month, micros.
    public var netRevenueMicros: Int64

    enum CodingKeys: String, CodingKey {
        case cohortMonth = "cohort_month", month, provider, currency, customers, retained, netRevenueMicros = "net_revenue_micros"
    }
}

/// Accumulates `ExpectedLifecycleRow`s and `ExpectedCohortCell`s.
struct ExpectedLifecycle {
    let catalogue: WorldCatalogue
    let asOfMs: Int64
    let months: [WorldMonth]
    private var rows: [String: ExpectedLifecycleRow] = [:]
    private var cohorts: [String: ExpectedCohortCell] = [:]

    init(catalogue: WorldCatalogue, asOfMs: Int64, months: [WorldMonth]) {
        self.catalogue = catalogue
        self.asOfMs = asOfMs
        self.months = months
    }

    /// Adds one story (not a test purchase) with its MRR timeline.
    mutating func add(_ story: Story, timeline: StoryTimeline, provider: String, currency: String) {
        let life = StoryLifecycle(story: story, catalogue: catalogue, asOfMs: asOfMs)
        func edit(_ month: WorldMonth, _ change: (inout ExpectedLifecycleRow) -> Void) {
            let key = "\(month.label) \(provider) \(currency)"
            var row = rows[key] ?? ExpectedLifecycleRow(month: month.label, provider: provider, currency: currency, states: [:],
                                                         trials: [:], planChanges: [:])
            change(&row)
            rows[key] = row
        }
        for month in months {
            if let state = life.state(at: min(month.lastMs, asOfMs)) { edit(month) { $0.states[state.rawValue, default: 0] += 1 } }
        }
        if let trial = life.trial {
            edit(WorldMonth(containing: trial.startMs)) {
                $0.trials["started", default: 0] += 1
                $0.trials[trial.outcome.rawValue, default: 0] += 1
            }
        }
        for change in life.planChanges { edit(WorldMonth(containing: change.atMs)) { $0.planChanges[change.type, default: 0] += 1 } }
        let charges = life.paidCharges
        guard let first = charges.first else { return }
        let start = WorldMonth(containing: first.atMs)
        var net: [Int64: Int64] = [:]
        for charge in charges { net[WorldMonth(containing: charge.atMs).index, default: 0] += charge.micros }
        for refund in timeline.refunds { net[WorldMonth(containing: refund.atMs).index, default: 0] -= refund.micros }
        for month in months where month >= start {
            let key = "\(start.label) \(month.label) \(provider) \(currency)"
            var cell = cohorts[key] ?? ExpectedCohortCell(cohortMonth: start.label, month: month.label, provider: provider,
                                                          currency: currency, customers: 0, retained: 0, netRevenueMicros: 0)
            cell.customers += 1
            if timeline.twelfths(at: min(month.lastMs, asOfMs)) > 0 { cell.retained += 1 }
            cell.netRevenueMicros += net[month.index] ?? 0
            cohorts[key] = cell
        }
    }

    /// The rows and cells, in key order.
    func finished() -> (rows: [ExpectedLifecycleRow], cohorts: [ExpectedCohortCell]) {
        (rows.keys.sorted().compactMap { rows[$0] }, cohorts.keys.sorted().compactMap { cohorts[$0] })
    }
}

import Foundation

/// What the world knows the finance metrics must be, computed from its own stories (never from the database):
/// `expected-metrics.json` (+ `expected-metrics.csv`, `price-change-transitions.csv`) and `fx_rates.csv` beside
/// `manifest.json`. The definitions are in docs/METRICS.md and on `ExpectedMetricsBuilder` / `PriceChangeCohorts`.
public struct ExpectedMetrics: Sendable, Hashable, Codable {
    public var seed: UInt64
    public var asOf: String
    /// The reporting currency of the `reporting` view (rates from `fx_rate`, USD per unit, the month's rate).
    public var reportingCurrency = WorldFXRates.quote
    /// Money: micros; each cell rounded half to even once from its exact sum.
    public var rounding = "half-even, once per cell"
    /// The calendar months reported (UTC), oldest first.
    public var months: [String]
    /// Cells by month, provider, currency and view (cells absent are zero).
    public var rows: [ExpectedMetricsRow]
    public var priceChangeCohorts: [PriceChangeCohort]
    /// Injected faults the nightly chain cannot reach, by reason (`reason:fault_kind`).
    public var unreachableFaults: [UnreachableFaults]
    /// Subscriber states, trial outcomes and plan changes per month, provider and currency (issue 30's reports).
    public var lifecycle: [ExpectedLifecycleRow] = []
    /// Cohort retention and realised revenue by start month and month (Reports/cohorts.sql).
    public var cohorts: [ExpectedCohortCell] = []
    /// Every per-subscription price-change transition (written to `price-change-transitions.csv`, not to the JSON).
    public var transitions: [PriceChangeTransition] = []
    /// The exchange rates used (written to `fx_rates.csv` and `fx_rate`, not to the JSON).
    var fx: WorldFXRates?

    enum CodingKeys: String, CodingKey {
        case seed, asOf = "as_of", reportingCurrency = "reporting_currency", rounding, months, rows
        case priceChangeCohorts = "price_change_cohorts", unreachableFaults = "unreachable_faults", lifecycle, cohorts
    }

    init(seed: UInt64, asOf: String, months: [String], rows: [ExpectedMetricsRow], priceChangeCohorts: [PriceChangeCohort],
         unreachableFaults: [UnreachableFaults], transitions: [PriceChangeTransition], fx: WorldFXRates) {
        self.seed = seed
        self.asOf = asOf
        self.months = months
        self.rows = rows
        self.priceChangeCohorts = priceChangeCohorts
        self.unreachableFaults = unreachableFaults
        self.transitions = transitions
        self.fx = fx
    }

    /// The JSON document (pretty, sorted keys: byte-identical for the same options).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes `expected-metrics.json`, `expected-metrics.csv`, `price-change-transitions.csv` and `fx_rates.csv` into `folder`.
    public func write(to folder: URL) throws {
        try encoded().write(to: folder.appendingPathComponent("expected-metrics.json"))
        let csv = ([ExpectedMetricsRow.csvHeader] + rows.map(\.csvLine)).joined(separator: "\n") + "\n"
        try Data(csv.utf8).write(to: folder.appendingPathComponent("expected-metrics.csv"))
        let lines = [PriceChangeTransition.csvHeader] + transitions.map(\.csvLine)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("price-change-transitions.csv"))
        if let fx { try Data(fx.csv().utf8).write(to: folder.appendingPathComponent("fx_rates.csv")) }
    }
}

/// Injected faults of one reason the nightly chain cannot reach.
public struct UnreachableFaults: Sendable, Hashable, Codable {
    /// `not_visible_to_requery:<kind>` or `google_token_outside_query_window:<kind>`.
    public var reason: String
    public var subscriptionIds: [String]

    enum CodingKeys: String, CodingKey { case reason, subscriptionIds = "subscription_ids" }
}

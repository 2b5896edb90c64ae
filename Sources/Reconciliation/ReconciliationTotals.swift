/// The totals of a run per currency, and the variance explained per category (prior-period adjustments apart).
public struct ReconciliationTotals: Sendable, Hashable {
    /// One currency's totals.
    public struct Line: Sendable, Hashable {
        public var reportGross: Int64 = 0
        public var databaseGross: Int64 = 0
        public var storeFee: Int64 = 0
        public var tax: Int64 = 0
        public var net: Int64 = 0
        /// report gross − database gross, explained: category → its share of the variance.
        public var byCategory: [ReconciliationCategory: Int64] = [:]
        /// Items per category.
        public var counts: [ReconciliationCategory: Int] = [:]

        /// An empty line.
        public init() {}

        /// report gross − database gross.
        public var variance: Int64 { reportGross - databaseGross }
        /// The sum of the category amounts (equals `variance` when every unit was categorised once).
        public var explained: Int64 { byCategory.values.reduce(0, +) }
    }

    /// Totals by currency.
    public var currencies: [String: Line] = [:]

    /// No items yet.
    public init() {}

    /// The totals of `items`, leaving out prior-period adjustments. An item's report amounts count in its currency,
    /// its database amount in the database's currency (they differ for a currency mismatch).
    public init(_ items: [ReconciliationItem]) {
        for item in items { add(item) }
    }

    /// Adds one item (a prior-period adjustment adds nothing).
    public mutating func add(_ item: ReconciliationItem) {
        guard !item.priorPeriodAdjustment else { return }
        let databaseCurrency = item.databaseCurrency ?? item.currency
        currencies[item.currency, default: Line()].reportGross += item.reportGross
        currencies[item.currency, default: Line()].storeFee += item.storeFee
        currencies[item.currency, default: Line()].tax += item.tax
        currencies[item.currency, default: Line()].net += item.net
        currencies[item.currency, default: Line()].byCategory[item.category, default: 0] += item.reportGross
        currencies[item.currency, default: Line()].counts[item.category, default: 0] += 1
        currencies[databaseCurrency, default: Line()].databaseGross += item.databaseGross
        currencies[databaseCurrency, default: Line()].byCategory[item.category, default: 0] -= item.databaseGross
    }

    /// Items per category over all currencies.
    public var counts: [ReconciliationCategory: Int] {
        var result: [ReconciliationCategory: Int] = [:]
        for line in currencies.values { for (category, count) in line.counts { result[category, default: 0] += count } }
        return result
    }
}

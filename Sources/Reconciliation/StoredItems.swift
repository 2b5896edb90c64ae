/// What a run stores of its items in `reconciliation_item`: every difference, Apple cell and prior-period
/// adjustment as its own row (with its line in the items CSV), and the matched Google units summed per side ×
/// product × country × currency (grain key `*`, `unit_count` = the orders summed). Storing one row per matched
/// order was most of a month-end run's database time; the items CSV still lists every order.
public struct StoredItems: Sendable {
    /// One row to store: its line and the item (summed amounts for a summed row) with the units it stands for.
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var item: ReconciliationItem
        public var unitCount: Int
    }

    struct SumKey: Hashable {
        var side: String
        var productId: String
        var country: String
        var currency: String
        var databaseCurrency: String?
    }

    /// Items added (the CSV's item lines).
    public private(set) var count = 0
    private var rows: [Row] = []
    private var sums: [SumKey: Int] = [:]
    private var summed: [Row] = []

    /// No items yet.
    public init() {}

    /// The rows of `items`, in order.
    public init(_ items: [ReconciliationItem]) {
        for item in items { add(item) }
    }

    /// Whether `item` is stored summed: a matched Google unit of the period itself.
    static func isSummed(_ item: ReconciliationItem) -> Bool {
        item.category == .matched && !item.priorPeriodAdjustment && (item.side == "charge" || item.side == "refund")
    }

    /// Adds the next item (line = items added so far + 1).
    public mutating func add(_ item: ReconciliationItem) {
        count += 1
        guard Self.isSummed(item) else {
            rows.append(Row(line: count, item: item, unitCount: 1))
            return
        }
        let key = SumKey(side: item.side, productId: item.productId, country: item.country, currency: item.currency,
                         databaseCurrency: item.databaseCurrency)
        guard let index = sums[key] else {
            var first = item
            first.grainKey = "*"
            first.detail = ""
            sums[key] = summed.count
            summed.append(Row(line: 0, item: first, unitCount: 1))
            return
        }
        summed[index].unitCount += 1
        summed[index].item.reportUnits += item.reportUnits
        summed[index].item.databaseUnits += item.databaseUnits
        summed[index].item.reportGross += item.reportGross
        summed[index].item.databaseGross += item.databaseGross
        summed[index].item.storeFee += item.storeFee
        summed[index].item.tax += item.tax
        summed[index].item.net += item.net
    }

    /// The index of the summed row `item` was added to (nil: stored alone).
    func summedIndex(of item: ReconciliationItem) -> Int? {
        guard Self.isSummed(item) else { return nil }
        return sums[SumKey(side: item.side, productId: item.productId, country: item.country, currency: item.currency,
                           databaseCurrency: item.databaseCurrency)]
    }

    /// The currency of summed row `index`.
    func summedCurrency(_ index: Int) -> String { summed[index].item.currency }

    /// Adds the next item, a matched unit whose summed row `index` already holds a unit of its key: only its
    /// amounts (the net is gross + fee + tax).
    mutating func addSummed(at index: Int, reportUnits: Int64, databaseUnits: Int64, reportGross: Int64, databaseGross: Int64,
                            storeFee: Int64, tax: Int64) {
        count += 1
        summed[index].unitCount += 1
        summed[index].item.reportUnits += reportUnits
        summed[index].item.databaseUnits += databaseUnits
        summed[index].item.reportGross += reportGross
        summed[index].item.databaseGross += databaseGross
        summed[index].item.storeFee += storeFee
        summed[index].item.tax += tax
        summed[index].item.net += reportGross + storeFee + tax
    }

    /// The rows to store: each item stored alone at its CSV line, then the summed rows numbered after the last
    /// item line, in the order their first unit came.
    public var stored: [Row] {
        rows + summed.enumerated().map { index, row in
            var row = row
            row.line = count + index + 1
            return row
        }
    }
}

import Foundation

/// Takes a run's items one at a time, in CSV order, and keeps only what the run needs of them: the items CSV
/// (streamed and hashed), the totals, the rows to store (`StoredItems`) and the count of prior-period adjustments.
/// A month-end Google run has a million items; none is held.
public final class ReconciliationItemSink {
    /// The items CSV.
    public let csv: ReconciliationCSVWriter
    /// The totals of the items taken with `add`.
    private var itemTotals = ReconciliationTotals()
    /// The rows to store.
    public private(set) var stored = StoredItems()
    /// Prior-period adjustments among the items.
    public private(set) var priorPeriodAdjustments = 0
    /// The amounts of the matched units taken with `recordMatched`, by summed row, not yet in `itemTotals`.
    private var pending: [MatchedAmounts] = []

    /// A sink writing the items CSV to `path` (nil: only its digest).
    public init(csvPath: URL?) throws {
        csv = try ReconciliationCSVWriter(path: csvPath)
    }

    /// The totals of the items so far.
    public var totals: ReconciliationTotals {
        var totals = itemTotals
        for (row, amounts) in pending.enumerated() where amounts.count > 0 {
            let currency = stored.summedCurrency(row)
            var line = totals.currencies[currency, default: ReconciliationTotals.Line()]
            line.reportGross += amounts.reportGross
            line.databaseGross += amounts.databaseGross
            line.storeFee += amounts.storeFee
            line.tax += amounts.tax
            line.net += amounts.net
            line.byCategory[.matched, default: 0] += amounts.reportGross - amounts.databaseGross
            line.counts[.matched, default: 0] += amounts.count
            totals.currencies[currency] = line
        }
        return totals
    }

    /// Takes the next item.
    public func add(_ item: ReconciliationItem) throws {
        try csv.add(item)
        record(item)
    }

    /// Takes the next item whose CSV line was written already: its totals and stored row.
    func record(_ item: ReconciliationItem) {
        itemTotals.add(item)
        stored.add(item)
        if item.priorPeriodAdjustment { priorPeriodAdjustments += 1 }
    }

    /// Takes the next item, a matched unit of summed row `row` (in one currency) whose CSV line was written already,
    /// by its amounts: what `record` does with the unit's item, without the item.
    func recordMatched(row: Int, reportUnits: Int64, databaseUnits: Int64, reportGross: Int64, databaseGross: Int64,
                       storeFee: Int64, tax: Int64) {
        stored.addSummed(at: row, reportUnits: reportUnits, databaseUnits: databaseUnits, reportGross: reportGross,
                         databaseGross: databaseGross, storeFee: storeFee, tax: tax)
        while pending.count <= row { pending.append(MatchedAmounts()) }
        pending[row].add(reportGross: reportGross, databaseGross: databaseGross, storeFee: storeFee, tax: tax)
    }
}

/// The summed amounts of matched units taken without their items.
struct MatchedAmounts {
    var reportGross: Int64 = 0
    var databaseGross: Int64 = 0
    var storeFee: Int64 = 0
    var tax: Int64 = 0
    var net: Int64 = 0
    var count = 0

    /// Adds one matched unit's amounts.
    mutating func add(reportGross: Int64, databaseGross: Int64, storeFee: Int64, tax: Int64) {
        self.reportGross += reportGross
        self.databaseGross += databaseGross
        self.storeFee += storeFee
        self.tax += tax
        net += reportGross + storeFee + tax
        count += 1
    }
}

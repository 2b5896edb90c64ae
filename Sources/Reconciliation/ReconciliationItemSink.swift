import Foundation

/// Takes a run's items one at a time, in CSV order, and keeps only what the run needs of them: the items CSV
/// (streamed and hashed), the totals, the rows to store (`StoredItems`) and the count of prior-period adjustments.
/// A month-end Google run has a million items; none is held.
public final class ReconciliationItemSink {
    /// The items CSV.
    public let csv: ReconciliationCSVWriter
    /// The totals of the items so far.
    public private(set) var totals = ReconciliationTotals()
    /// The rows to store.
    public private(set) var stored = StoredItems()
    /// Prior-period adjustments among the items.
    public private(set) var priorPeriodAdjustments = 0

    /// A sink writing the items CSV to `path` (nil: only its digest).
    public init(csvPath: URL?) throws {
        csv = try ReconciliationCSVWriter(path: csvPath)
    }

    /// Takes the next item.
    public func add(_ item: ReconciliationItem) throws {
        try csv.add(item)
        totals.add(item)
        stored.add(item)
        if item.priorPeriodAdjustment { priorPeriodAdjustments += 1 }
    }
}

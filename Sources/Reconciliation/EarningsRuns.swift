import CompactMemory
import StoreExports

/// A batch of an earnings file's rows folded into runs, ready for the report side: each run is the rows of one
/// order and side that follow one another in the file, folded into a `CompactUnit` (texts numbered in the
/// folder's `UnitTexts`), with its order ID's bytes. Plain arrays: handing a batch to another thread costs nothing
/// per row.
struct EarningsRuns {
    /// The runs' order IDs, end to end.
    var orderBytes: [UInt8] = []
    /// Each run's order ID in `orderBytes`.
    var orders: [Range<Int>] = []
    /// Each run's side: 0 charge, 1 refund.
    var sides: [UInt8] = []
    /// Each run's rows folded.
    var units: [CompactUnit] = []
    /// Earnings rows folded into this batch.
    var rows = 0
}

/// Folds an earnings file's rows, in file order, into `EarningsRuns` batches (on the thread that parses them):
/// the rows of a run become one unit exactly as `GoogleEarningsFold` folds them, and the report side adds each run
/// to its unit with `CompactUnit.absorb`, so an order whose rows are spread over the file still gets one unit.
struct EarningsRunFolder {
    /// Runs per batch.
    let batchSize: Int
    /// The texts the units' numbers refer to (handed to the report side at the end).
    private(set) var texts = UnitTexts()
    private var batch = EarningsRuns()
    /// Where the current run's order ID is in `batch.orderBytes` (nil before the first row).
    private var runOrder: Range<Int>?
    private var runSide: UInt8 = 0
    private var run = CompactUnit()
    /// The last texts numbered (a file repeats an order's product, country and currency row after row).
    private var last = (product: CellMemo(Int32(0)), country: CellMemo(Int32(0)), currency: CellMemo(Int32(0)))

    /// A folder handing over batches of `batchSize` runs.
    init(batchSize: Int = 2048) {
        self.batchSize = max(1, batchSize)
    }

    /// Folds the next row; returns a full batch when one is ready.
    mutating func add(_ entry: GoogleEarningsFields) -> EarningsRuns? {
        let (sideName, part, countDelta) = GoogleEarningsFold.classify(entry.transactionType, refundType: entry.refundType)
        let side: UInt8 = sideName == "charge" ? 0 : 1
        var row = CompactUnit()
        row.isTest = false
        row.at = entry.transactionEpochSeconds
        switch part {
        case .gross:
            row.gross = entry.amountBuyerMicros
            row.count = Int32(countDelta)
            row.currency = Self.number(entry.buyerCurrency, &last.currency, in: &texts.currencies)
        case .fee: row.fee = entry.amountBuyerMicros
        case .tax: row.tax = entry.amountBuyerMicros
        }
        row.product = Self.number(entry.productID, &last.product, in: &texts.products)
        row.country = Self.number(entry.buyerCountry, &last.country, in: &texts.countries)
        if side == 1, let refundType = entry.refundType {
            row.refundType = UInt8(truncatingIfNeeded: texts.refundTypes.intern(refundType.rawValue))
        }
        var full: EarningsRuns?
        if let runOrder, runSide == side,
           batch.orderBytes.withUnsafeBytes({ ByteInterner.equal(UnsafeRawBufferPointer(rebasing: $0[runOrder]), entry.orderID) }) {
            run.absorb(row)
        } else {
            full = endRun()
            let start = batch.orderBytes.count
            batch.orderBytes.append(contentsOf: entry.orderID)
            runOrder = start..<batch.orderBytes.count
            runSide = side
            run = row
        }
        batch.rows += 1
        return full
    }

    /// Ends the file: the last batch, if it holds anything.
    mutating func finish() -> EarningsRuns? {
        if let full = endRun() { return full }
        defer { batch = EarningsRuns() }
        return batch.rows > 0 || !batch.units.isEmpty ? batch : nil
    }

    /// Adds the current run (its order ID already in the batch) to the batch; returns the batch when it is full.
    private mutating func endRun() -> EarningsRuns? {
        guard let order = runOrder else { return nil }
        batch.orders.append(order)
        batch.sides.append(runSide)
        batch.units.append(run)
        runOrder = nil
        guard batch.units.count >= batchSize else { return nil }
        defer { batch = EarningsRuns() }
        return batch
    }

    /// The number of `text` in `table`, the last one asked for kept aside.
    private static func number(_ text: UnsafeRawBufferPointer, _ last: inout CellMemo<Int32>, in table: inout ByteInterner) -> Int32 {
        let whole = 0..<text.count
        if last.holds(text, whole) { return last.value }
        let number = table.intern(text)
        last.remember(text, whole, as: number)
        return number
    }
}

extension CompactUnit {
    /// Adds `later` — rows of the same unit that come after this unit's rows in the file — as folding all the rows
    /// in file order would (`GoogleEarningsFold`): amounts and counts add up; the currency (of the first gross
    /// row), product and country are the first ones given; the last refund type given stays; the earliest instant.
    mutating func absorb(_ later: CompactUnit) {
        gross += later.gross
        fee += later.fee
        tax += later.tax
        count += later.count
        if currency == 0 { currency = later.currency }
        if product == 0 { product = later.product }
        if country == 0 { country = later.country }
        if later.refundType != 0 { refundType = later.refundType }
        at = Swift.min(at, later.at)
        isTest = isTest && later.isTest
    }
}

import CompactMemory

/// A batch of a report side's runs, ready for `CompactReport.add`: each run is a staged fact (the rows of one order
/// and side that follow one another in an earnings file, folded at import) or an estimated-sales row, as a
/// `CompactUnit` (texts numbered in the side's `UnitTexts`), with its order ID's bytes. Plain arrays.
struct EarningsRuns {
    /// Runs per batch.
    static let batchSize = 2048
    /// The runs' order IDs, end to end.
    var orderBytes: [UInt8] = []
    /// Each run's order ID in `orderBytes`.
    var orders: [Range<Int>] = []
    /// Each run's side: 0 charge, 1 refund.
    var sides: [UInt8] = []
    /// Each run's unit.
    var units: [CompactUnit] = []
    /// Staged rows the batch's runs fold.
    var rows = 0

    /// Adds a run of `order` (bytes lent by the caller) on `side`, folding `rows` rows into `unit`.
    mutating func add(order: UnsafeRawBufferPointer, side: UInt8, unit: CompactUnit, rows: Int) {
        let start = orderBytes.count
        orderBytes.append(contentsOf: order)
        orders.append(start..<orderBytes.count)
        sides.append(side)
        units.append(unit)
        self.rows += rows
    }
}

extension CompactUnit {
    /// Adds `later` — rows of the same unit that come after this unit's rows in the file — as folding all the rows
    /// in file order would (`GoogleEarningsFold` in ReportImport): amounts and counts add up; the currency (of the
    /// first gross row), product and country are the first ones given; the last refund type given stays; the
    /// earliest instant.
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

/// A staged earnings fact (`google_earnings_fact`: a run of one order and side folded at import), its texts lent by
/// the reader.
struct StagedEarningsFact {
    var order: UnsafeRawBufferPointer
    /// 0 charge, 1 refund.
    var side: UInt8
    var gross: Int64
    var fee: Int64
    var tax: Int64
    var charges: Int32
    var rows: Int
    var currency: UnsafeRawBufferPointer
    var country: UnsafeRawBufferPointer
    var product: UnsafeRawBufferPointer
    /// `Full` or `Partial` (a refund run), nil when none.
    var refundType: UnsafeRawBufferPointer?
    /// The earliest instant (UTC epoch seconds).
    var at: Int64
}

extension EarningsRuns {
    /// Adds `fact` as a run, its texts numbered in `texts`.
    mutating func add(_ fact: StagedEarningsFact, texts: inout UnitTexts) {
        var unit = CompactUnit()
        unit.gross = fact.gross
        unit.fee = fact.fee
        unit.tax = fact.tax
        unit.count = fact.charges
        unit.currency = texts.currencies.intern(fact.currency)
        unit.product = texts.products.intern(fact.product)
        unit.country = texts.countries.intern(fact.country)
        if fact.side == 1, let refundType = fact.refundType {
            unit.refundType = UInt8(truncatingIfNeeded: texts.refundTypes.intern(refundType))
        }
        unit.at = fact.at
        unit.isTest = false
        add(order: fact.order, side: fact.side, unit: unit, rows: fact.rows)
    }
}

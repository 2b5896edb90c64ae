import CompactMemory
/// One order's units in a Google month and its two neighbours, built from the order's rows of the sorted stream
/// (`GoogleMonthStream`): per period and side, the report's unit (its staged facts absorbed in file order, or its
/// estimated-sales rows) and the database's unit (its rows folded in transaction-key order). The texts are numbered
/// in month-long tables (`reportTexts`, `databaseTexts`: a few hundred currencies, countries and products); the
/// database keys are the order's own (`databaseTexts.keys`, emptied for each order).
struct GoogleOrderUnits {
    /// The month's neighbours and the month: `[previous, month, next]`.
    let periods: [ReconciliationPeriod]
    /// The order's ID.
    private(set) var id: [UInt8] = []
    var reportTexts = UnitTexts()
    var databaseTexts = UnitTexts()
    /// Per `period * 2 + side` (side 0 charge, 1 refund).
    private var reports: [CompactUnit?]
    private var databases: [CompactUnit?]
    /// The order's database rows in arrival (transaction-key) order, folded into units once the order is complete.
    private var rows: [DatabaseRow] = []
    /// Whether `databases` holds the folded rows.
    private var folded = true

    /// One database row: its unit slot, its one-row unit (texts numbered), its key in `keyBytes`.
    private struct DatabaseRow {
        var slot: Int
        var unit: CompactUnit
        var key: Range<Int>
    }
    private var keyBytes: [UInt8] = []

    /// An empty order of `periods`.
    init(periods: [ReconciliationPeriod]) {
        self.periods = periods
        reports = Array(repeating: nil, count: periods.count * 2)
        databases = reports
    }

    /// Whether an order was started (`start`).
    private(set) var hasRows = false

    /// Whether the order being built is `order`.
    func holds(_ order: UnsafeRawBufferPointer) -> Bool {
        id.withUnsafeBytes { ByteInterner.equal(order, $0) }
    }

    /// Whether `order` comes after the order being built in byte order (as `COLLATE "C"` sorts).
    func isBefore(_ order: UnsafeRawBufferPointer) -> Bool {
        id.withUnsafeBytes { ByteInterner.compare($0, order) < 0 }
    }

    /// Starts order `order`: forgets the previous order's rows and units.
    mutating func start(_ order: UnsafeRawBufferPointer) {
        hasRows = true
        id.removeAll(keepingCapacity: true)
        id.append(contentsOf: order)
        for index in reports.indices {
            reports[index] = nil
            databases[index] = nil
        }
        rows.removeAll(keepingCapacity: true)
        keyBytes.removeAll(keepingCapacity: true)
        databaseTexts.keys.removeAll()
        folded = true
    }

    /// The order ID as text.
    var order: String { String(decoding: id, as: UTF8.self) }

    /// Adds a staged earnings fact (a run of the order's rows on `side`, folded at import) of period `period`:
    /// absorbed into the period's report unit, as folding every row in file order would.
    mutating func addFact(period: Int, side: Int, gross: Int64, fee: Int64, tax: Int64, charges: Int32,
                          currency: UnsafeRawBufferPointer, country: UnsafeRawBufferPointer, product: UnsafeRawBufferPointer,
                          refundType: UnsafeRawBufferPointer?, at: Int64) {
        var unit = CompactUnit()
        unit.gross = gross
        unit.fee = fee
        unit.tax = tax
        unit.count = charges
        unit.currency = reportTexts.currencies.intern(currency)
        unit.product = reportTexts.products.intern(product)
        unit.country = reportTexts.countries.intern(country)
        if side == 1, let refundType {
            unit.refundType = UInt8(truncatingIfNeeded: reportTexts.refundTypes.intern(refundType))
        }
        unit.at = at
        unit.isTest = false
        addReport(unit, slot: period * 2 + side)
    }

    /// Adds an estimated-sales row of period `period`: a unit of the order's charge or refund (`Refund` status), the
    /// charged amount and the taxes signed by the side (a refund row may be written with either sign).
    mutating func addEstimatedSale(period: Int, refund: Bool, charged: Int64, taxes: Int64, currency: UnsafeRawBufferPointer,
                                   country: UnsafeRawBufferPointer, product: UnsafeRawBufferPointer, at: Int64) {
        let sign: Int64 = refund ? -1 : 1
        var unit = CompactUnit()
        unit.gross = sign * abs(charged)
        unit.tax = -sign * abs(taxes)
        unit.count = 1
        unit.currency = reportTexts.currencies.intern(currency)
        unit.product = reportTexts.products.intern(product)
        unit.country = reportTexts.countries.intern(country)
        unit.at = at
        unit.isTest = false
        addReport(unit, slot: period * 2 + (refund ? 1 : 0))
    }

    private mutating func addReport(_ unit: CompactUnit, slot: Int) {
        if reports[slot] == nil {
            reports[slot] = unit
        } else {
            reports[slot]?.absorb(unit)
        }
    }

    /// Adds database row `row` of a batch whose texts are in `bytes` (rows arrive in transaction-key order): its
    /// period is the first of `periods` holding its instant (a row in none is left out), its side the amount's sign.
    /// A country arrives alpha-3 or alpha-2 and is kept alpha-2.
    mutating func addDatabaseRow(_ row: GoogleDatabaseStream.Row, bytes: UnsafeRawBufferPointer) {
        guard let period = periods.firstIndex(where: { $0.contains(row.at) }) else { return }
        func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }
        var unit = CompactUnit()
        unit.gross = row.amount
        unit.count = 1
        unit.currency = databaseTexts.currencies.intern(text(row.currency))
        unit.product = databaseTexts.products.intern(text(row.product))
        let country = text(row.country)
        unit.country = country.count == 2 ? databaseTexts.countries.intern(country)
            : databaseTexts.countries.intern(CountryCodes.alpha2(String(decoding: country, as: UTF8.self)))
        unit.at = row.at
        unit.isTest = row.isTest
        let start = keyBytes.count
        keyBytes.append(contentsOf: bytes[row.key])
        rows.append(DatabaseRow(slot: period * 2 + (row.amount > 0 ? 0 : 1), unit: unit, key: start..<keyBytes.count))
        folded = false
    }

    /// Folds the database rows into their units, unit by unit, each unit's rows in key order: amounts and counts
    /// add up, the first row's currency and the first non-empty product and country stay, the earliest instant, a
    /// test purchase only when every row is one, every key stored whole, one after another.
    mutating func fold() {
        guard !folded else { return }
        folded = true
        for slot in databases.indices {
            for row in rows where row.slot == slot {
                var unit = databases[slot] ?? CompactUnit()
                unit.gross += row.unit.gross
                unit.count += 1
                if unit.currency == 0 { unit.currency = row.unit.currency }
                if unit.product == 0 { unit.product = row.unit.product }
                if unit.country == 0 { unit.country = row.unit.country }
                unit.at = min(unit.at, row.unit.at)
                unit.isTest = unit.isTest && row.unit.isTest
                let number = keyBytes.withUnsafeBytes { databaseTexts.keys.append(UnsafeRawBufferPointer(rebasing: $0[row.key])) }
                if unit.firstKey < 0 { unit.firstKey = number }
                databases[slot] = unit
            }
        }
    }

    /// The report's unit of period `period` on `side`.
    func report(period: Int, side: Int) -> CompactUnit? { reports[period * 2 + side] }

    /// The database's unit of period `period` on `side` (once the rows are folded: `fold`).
    func database(period: Int, side: Int) -> CompactUnit? { databases[period * 2 + side] }
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

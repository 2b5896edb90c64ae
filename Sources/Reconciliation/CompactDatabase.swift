import CompactMemory
import Postgres

/// The database side of a Google month and its neighbours, compact, built from binary `COPY … TO STDOUT` rows arriving
/// in any order: each order ID once in an interner, each unit a `CompactUnit` found by order number, period and
/// side, its transaction keys in one arena. A unit of several rows is folded again in transaction-key order at the
/// end, so every unit is its rows folded in key order (`fold`).
struct CompactDatabase {
    let periods: [ReconciliationPeriod]
    let orders: SharedOrders
    var texts = UnitTexts()
    var units = BlockArray<CompactUnit>()
    /// Per period, the unit number per `order * 2 + side` (side 0 charge, 1 refund); -1 when none. A period's table
    /// grows only when one of its rows arrives (a month's neighbours are often empty).
    private var unitOf: [BlockArray<Int32>]
    /// The rows of units with more than one row, by slot.
    private var several: [Int: [GoogleDatabaseRow]] = [:]
    /// Rows read but not yet placed: their units (order not yet numbered), period and side, and their order IDs
    /// end to end in `pendingOrders` (numbered a batch at a time under the shared lock).
    private var pending: [(unit: CompactUnit, period: Int, side: Int)] = []
    private var pendingOrders: [UInt8] = []
    private var pendingRanges: [Range<Int>] = []
    private var numbers: [Int32] = []
    /// The binary COPY's reader (its header comes with the first tuple).
    private var copy = BinaryCopyReader()
    /// Rows per batch.
    let batch: Int

    /// An empty side of `periods` numbering its orders in `orders`, `batch` rows at a time.
    init(periods: [ReconciliationPeriod], orders: SharedOrders, batch: Int = 2048) {
        self.periods = periods
        self.orders = orders
        self.batch = max(1, batch)
        unitOf = periods.map { _ in BlockArray<Int32>() }
    }

    /// The position of `label` among the periods (the first, when a period is there twice).
    func periodIndex(_ label: String) -> Int? { periods.firstIndex { $0.label == label } }

    /// Adds one message of the binary COPY (`GoogleDatabaseCopy.copyStatement`): a tuple of transaction key, order,
    /// amount, currency, country, product, is_test and `effective_at` — or the header alone, or the trailer.
    mutating func add(copyMessage bytes: UnsafeRawBufferPointer) throws {
        guard try copy.read(bytes) else { return }
        let columns = copy.fields
        func unexpected(_ reason: String) -> PostgresError {
            PostgresError(.copy, message: "unexpected COPY row (\(reason)): \(columns.count) fields, \(bytes.count) bytes")
        }
        guard columns.count == 8 else { throw unexpected("not 8 fields") }
        func field(_ index: Int) throws -> Range<Int> {
            guard let field = columns[index] else { throw unexpected("NULL in field \(index + 1)") }
            return field
        }
        let fields = (try field(0), try field(1), try field(2), try field(3), try field(4), try field(5), try field(6), try field(7))
        guard let amount = BinaryCopyReader.int64(bytes, fields.2) else { throw unexpected("amount is not an int8") }
        guard let micros = BinaryCopyReader.int64(bytes, fields.7),
              let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else { throw unexpected("effective_at is not a timestamptz") }
        guard fields.6.count == 1 else { throw unexpected("is_test is not a bool") }
        guard let period = periods.firstIndex(where: { $0.contains(at) }) else { return }
        var unit = CompactUnit()
        unit.gross = amount
        unit.count = 1
        unit.currency = texts.currencies.intern(UnsafeRawBufferPointer(rebasing: bytes[fields.3]))
        unit.product = texts.products.intern(UnsafeRawBufferPointer(rebasing: bytes[fields.5]))
        let country = UnsafeRawBufferPointer(rebasing: bytes[fields.4])
        unit.country = country.count == 2 ? texts.countries.intern(country)
            : texts.countries.intern(CountryCodes.alpha2(String(decoding: country, as: UTF8.self)))
        unit.at = at
        unit.isTest = bytes[fields.6.lowerBound] != 0
        // The key without its ending ':' + order when it has one (most of a key's bytes are the token and the order).
        var key = fields.0
        let orderBytes = fields.1.count
        if key.count > orderBytes, bytes[key.upperBound - orderBytes - 1] == UInt8(ascii: ":"),
           ByteInterner.equal(UnsafeRawBufferPointer(rebasing: bytes[(key.upperBound - orderBytes)..<key.upperBound]),
                              UnsafeRawBufferPointer(rebasing: bytes[fields.1])) {
            key = key.lowerBound..<(key.upperBound - orderBytes - 1)
            unit.keyEndsWithOrder = true
        }
        unit.firstKey = texts.keys.append(UnsafeRawBufferPointer(rebasing: bytes[key]))
        let orderStart = pendingOrders.count
        pendingOrders.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[fields.1]))
        pendingRanges.append(orderStart..<pendingOrders.count)
        pending.append((unit, period, amount > 0 ? 0 : 1))
        if pending.count >= batch { placePending() }
    }

    /// Numbers the pending rows' orders (one taking of the shared lock) and places their units; a unit's second row
    /// is kept as text to fold again in key order at the end.
    private mutating func placePending() {
        guard !pending.isEmpty else { return }
        orders.intern(pendingOrders, ranges: pendingRanges, into: &numbers)
        for (index, row) in pending.enumerated() {
            let slot = self.slot(order: numbers[index], period: row.period, side: row.side)
            if self[slot] < 0 {
                self[slot] = Int32(units.count)
                units.append(row.unit)
                continue
            }
            let order = String(decoding: pendingOrders[pendingRanges[index]], as: UTF8.self)
            addFurther(databaseRow(row.unit, order: order), slot: slot)
        }
        pending.removeAll(keepingCapacity: true)
        pendingOrders.removeAll(keepingCapacity: true)
        pendingRanges.removeAll(keepingCapacity: true)
    }

    /// Keeps a unit's further row (and its first, rebuilt from the unit) to fold again in key order at the end.
    private mutating func addFurther(_ row: GoogleDatabaseRow, slot: Int) {
        let index = Int(self[slot])
        if several[slot] == nil {
            // The unit's one row, rebuilt from the unit (its country is already alpha-2: `alpha2` keeps it).
            several[slot] = [databaseRow(units[index], order: row.order)]
        }
        several[slot, default: []].append(row)
    }

    /// Places the last rows and folds the units of several rows again in transaction-key order.
    mutating func finish() {
        placePending()
        for (slot, rows) in several {
            units[Int(self[slot])] = Self.fold(rows.sorted(by: { $0.key < $1.key }), into: &texts)
        }
        several = [:]
    }

    /// The slot of a unit, `period << 40 | order * 2 + side` (growing the period's table for a new order).
    mutating func slot(order: Int32, period: Int, side: Int) -> Int {
        while unitOf[period].count < (Int(order) + 1) * 2 { unitOf[period].append(-1) }
        return period << 40 | Int(order) * 2 + side
    }

    /// The unit number in `slot` (-1: none).
    private subscript(slot: Int) -> Int32 {
        get { unitOf[slot >> 40][slot & 0xFF_FFFF_FFFF] }
        set { unitOf[slot >> 40][slot & 0xFF_FFFF_FFFF] = newValue }
    }

    /// The unit number of order number `number` in period `period` on `side` (0 charge, 1 refund; -1: none).
    func unitNumber(order number: Int32, period: Int, side: Int) -> Int32 {
        let index = Int(number) * 2 + side
        return unitOf.withUnsafeBufferPointer { tables in index < tables[period].count ? tables[period][index] : -1 }
    }

    /// The unit of order number `number` in period `period` on `side`.
    func unit(order number: Int32, period: Int, side: Int) -> CompactUnit? {
        let unit = unitNumber(order: number, period: period, side: side)
        return unit >= 0 ? units[Int(unit)] : nil
    }

    /// A one-row unit as its row (`order` is its order ID).
    private func databaseRow(_ unit: CompactUnit, order: String) -> GoogleDatabaseRow {
        GoogleDatabaseRow(key: texts.keys(of: unit, order: order).first ?? "", order: order, amount: unit.gross,
                          currency: texts.currencies.string(unit.currency), country: texts.countries.string(unit.country),
                          product: texts.products.string(unit.product), isTest: unit.isTest, at: unit.at)
    }

    /// Whether order number `order` has a unit in period `period` on `side`.
    func has(order number: Int32, period: Int, side: Int) -> Bool {
        unitNumber(order: number, period: period, side: side) >= 0
    }
}

extension CompactDatabase {
    /// The unit of `rows` (one order's, in transaction-key order), its texts numbered in `texts`: amounts and counts
    /// add up, the first row's currency and the first non-empty product and country stay (a country as alpha-2), the
    /// earliest instant, a test purchase only when every row is one, every key stored whole, one after another.
    static func fold(_ rows: [GoogleDatabaseRow], into texts: inout UnitTexts) -> CompactUnit {
        var unit = CompactUnit()
        for row in rows {
            unit.gross += row.amount
            unit.count += 1
            if unit.currency == 0 { unit.currency = texts.currencies.intern(row.currency) }
            if unit.product == 0 { unit.product = texts.products.intern(row.product) }
            if unit.country == 0 { unit.country = texts.countries.intern(CountryCodes.alpha2(row.country)) }
            unit.at = min(unit.at, row.at)
            unit.isTest = unit.isTest && row.isTest
            var key = row.key
            let number = key.withUTF8 { texts.keys.append(UnsafeRawBufferPointer($0)) }
            if unit.firstKey < 0 { unit.firstKey = number }
        }
        return unit
    }
}

/// One billing_transaction row as the Google reconciliation reads it.
struct GoogleDatabaseRow: Sendable {
    var key: String
    var order: String
    var amount: Int64
    var currency: String
    var country: String
    var product: String
    var isTest: Bool
    /// `effective_at`, UTC epoch seconds.
    var at: Int64
}

import StoreExports

/// One side of a Google unit in a few words: `UnitSide` with its texts as numbers in the side's `UnitTexts` and its
/// database keys as a list in the side's key arena.
struct CompactUnit {
    var gross: Int64 = 0
    var fee: Int64 = 0
    var tax: Int64 = 0
    var at: Int64 = .max
    var count: Int32 = 0
    /// 0 is the empty text in each table.
    var currency: Int32 = 0
    var country: Int32 = 0
    var product: Int32 = 0
    /// The report's `Refund Type` of a refund unit (`Full`, `Partial`; 0 = none), in `UnitTexts.refundTypes`.
    var refundType: Int32 = 0
    /// The first and last database key (-1: none), chained through `UnitTexts.nextKey`.
    var firstKey: Int32 = -1
    var lastKey: Int32 = -1
    var isTest = true
}

/// The texts of one side's units: currencies, countries and products interned (0 = empty), and the database keys.
struct UnitTexts {
    var currencies = UnitTexts.table()
    var countries = UnitTexts.table()
    var products = UnitTexts.table()
    var refundTypes = UnitTexts.table()
    var keys = ByteArena()
    /// The key after each key of a unit (-1: the last).
    var nextKey: [Int32] = []

    static func table() -> ByteInterner {
        var table = ByteInterner(capacity: 256, keepsText: true)
        _ = table.intern("")
        return table
    }

    /// Adds key `bytes` at the end of `unit`'s keys.
    mutating func appendKey(_ bytes: UnsafeRawBufferPointer, to unit: inout CompactUnit) {
        let index = keys.append(bytes)
        nextKey.append(-1)
        if unit.lastKey >= 0 { nextKey[Int(unit.lastKey)] = index } else { unit.firstKey = index }
        unit.lastKey = index
    }

    /// `unit` as a `UnitSide`.
    func side(_ unit: CompactUnit) -> UnitSide {
        var side = UnitSide()
        side.gross = unit.gross
        side.fee = unit.fee
        side.tax = unit.tax
        side.count = Int64(unit.count)
        side.currency = currencies.string(unit.currency)
        side.productId = products.string(unit.product)
        side.country = countries.string(unit.country)
        side.refundType = refundTypes.string(unit.refundType)
        side.at = unit.at
        side.isTest = unit.isTest
        var key = unit.firstKey
        while key >= 0 {
            side.keys.append(keys.string(key))
            key = nextKey[Int(key)]
        }
        return side
    }

    /// `side` as a compact unit (its texts interned, its keys appended).
    mutating func unit(_ side: UnitSide) -> CompactUnit {
        var unit = CompactUnit(gross: side.gross, fee: side.fee, tax: side.tax, at: side.at, count: Int32(side.count),
                               currency: currencies.intern(side.currency), country: countries.intern(side.country),
                               product: products.intern(side.productId), refundType: refundTypes.intern(side.refundType),
                               isTest: side.isTest)
        for key in side.keys {
            var key = key
            key.withUTF8 { appendKey(UnsafeRawBufferPointer($0), to: &unit) }
        }
        return unit
    }
}

/// The report side of one Google month read from its zip, compact: each order ID once in an interner, each unit a
/// `CompactUnit`, found by order number and side. Folds exactly as `GoogleEarningsFold.add(_:to:)` does.
struct CompactReport {
    var orders = ByteInterner(capacity: 1 << 16)
    var texts = UnitTexts()
    var units: [CompactUnit] = []
    /// Unit number per order number and side (`order * 2 + side`, side 0 charge, 1 refund); -1 when none.
    var unitOf: [Int32] = []
    private var lastOrder = ""
    private var lastOrderIndex: Int32 = -1

    /// Adds one streamed earnings row.
    mutating func add(_ entry: GoogleEarningsEntry) {
        let (side, part, countDelta) = GoogleEarningsFold.classify(entry.transactionType, refundType: entry.refundType)
        if lastOrderIndex < 0 || entry.orderID != lastOrder {
            lastOrder = entry.orderID
            lastOrderIndex = orders.intern(entry.orderID)
            while unitOf.count < orders.count * 2 { unitOf.append(-1) }
        }
        let slot = Int(lastOrderIndex) * 2 + (side == "charge" ? 0 : 1)
        if unitOf[slot] < 0 {
            unitOf[slot] = Int32(units.count)
            units.append(CompactUnit())
        }
        let index = Int(unitOf[slot])
        switch part {
        case .gross:
            units[index].gross += entry.amountBuyerMicros
            units[index].count += Int32(countDelta)
            if units[index].currency == 0 { units[index].currency = texts.currencies.intern(entry.buyerCurrency) }
        case .fee: units[index].fee += entry.amountBuyerMicros
        case .tax: units[index].tax += entry.amountBuyerMicros
        }
        if units[index].product == 0 { units[index].product = texts.products.intern(entry.productID) }
        if units[index].country == 0 { units[index].country = texts.countries.intern(entry.buyerCountry) }
        if side == "refund", let refundType = entry.refundType { units[index].refundType = texts.refundTypes.intern(refundType.rawValue) }
        units[index].at = min(units[index].at, entry.transactionEpochSeconds)
        units[index].isTest = false
    }

    /// The unit of order number `order` on `side` (0 charge, 1 refund), as a `UnitSide`.
    func side(order: Int32, side: Int) -> UnitSide? {
        let slot = Int(order) * 2 + side
        guard slot < unitOf.count, unitOf[slot] >= 0 else { return nil }
        return texts.side(units[Int(unitOf[slot])])
    }
}

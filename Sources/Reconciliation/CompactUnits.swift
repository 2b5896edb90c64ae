import CompactMemory
import StoreExports

/// One side of a Google unit — the rows of one order's charge or refund, in the report or in the database — in a
/// few words: its texts as numbers in the side's `UnitTexts`, its database keys as a run of consecutive values in the
/// side's key arena. The one unit type of the Google comparison.
struct CompactUnit {
    /// Sum of the gross amounts (Charge / Charge refund / rebills; the database's amounts).
    var gross: Int64 = 0
    /// Sum of the store's fee rows (report only).
    var fee: Int64 = 0
    /// Sum of the tax rows (report only).
    var tax: Int64 = 0
    /// The earliest instant (UTC epoch seconds).
    var at: Int64 = .max
    /// How many charge (or refund) rows carry the unit: Charge / Charge refund rows, database rows.
    var count: Int32 = 0
    /// 0 is the empty text in each table.
    var currency: Int32 = 0
    var country: Int32 = 0
    var product: Int32 = 0
    /// The first database key in the order's `OrderKeys` (-1: none, a report unit); a database unit's `count` keys
    /// follow one another (each of its rows adds one key and one to the count).
    var firstKey: Int32 = -1
    /// True when every database row of the unit is a test purchase.
    var isTest = true
    /// The report's `Refund Type` of a refund unit in `UnitTexts.refundTypes` (0 = none; the table holds at most
    /// the empty text, `Full` and `Partial`, so a byte keeps the unit at 56 bytes).
    var refundType: UInt8 = 0
}

/// The texts of one side's units: currencies, countries and products interned (0 = empty; a few hundred texts in a
/// month), and the database keys of the order being categorised.
struct UnitTexts {
    var currencies = UnitTexts.table()
    var countries = UnitTexts.table()
    var products = UnitTexts.table()
    var refundTypes = UnitTexts.table()
    var keys = OrderKeys()

    static func table() -> ByteInterner {
        var table = ByteInterner(capacity: 256, keepsText: true, blockSize: 1 << 12)
        _ = table.intern("")
        return table
    }

    /// The database keys of `unit`, in order.
    func keys(of unit: CompactUnit) -> [String] {
        guard unit.firstKey >= 0 else { return [] }
        return (unit.firstKey..<(unit.firstKey + unit.count)).map { keys.string($0) }
    }

    /// The report's `Refund Type` of `unit` (`Full`, `Partial` or empty).
    func refundType(_ unit: CompactUnit) -> String {
        refundTypes.string(Int32(unit.refundType))
    }
}

/// The database keys of one order's units, end to end; emptied when the next order starts.
struct OrderKeys {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    /// Appends `key`; returns its number.
    mutating func append(_ key: UnsafeRawBufferPointer) -> Int32 {
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        return Int32(ends.count - 1)
    }

    /// Forgets every key (keeping the memory for the next order).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the bytes of key `number`.
    func withBytes<R>(_ number: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let index = Int(number)
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<ends[index]])) }
    }

    /// Key `number` as text.
    func string(_ number: Int32) -> String {
        withBytes(number) { String(decoding: $0, as: UTF8.self) }
    }
}

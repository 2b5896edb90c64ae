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
    /// The first database key (-1: none, a report unit); a database unit's `count` keys follow one another (each
    /// of its rows adds one key and one to the count).
    var firstKey: Int32 = -1
    /// True when every database row of the unit is a test purchase.
    var isTest = true
    /// The unit's one key is stored without its ending `:` + order ID (a Google key is `GOOGLE:{token}:{order}`).
    var keyEndsWithOrder = false
    /// The report's `Refund Type` of a refund unit in `UnitTexts.refundTypes` (0 = none; the table holds at most
    /// the empty text, `Full` and `Partial`, so a byte keeps the unit at 56 bytes).
    var refundType: UInt8 = 0
}

/// The texts of one side's units: currencies, countries and products interned (0 = empty), and the database keys.
struct UnitTexts {
    var currencies = UnitTexts.table()
    var countries = UnitTexts.table()
    var products = UnitTexts.table()
    var refundTypes = UnitTexts.table()
    var keys = ByteArena()

    static func table() -> ByteInterner {
        var table = ByteInterner(capacity: 256, keepsText: true, blockSize: 1 << 12)
        _ = table.intern("")
        return table
    }

    /// The database keys of `unit`, in order; `order` is its order ID (for a key stored without it).
    func keys(of unit: CompactUnit, order: String) -> [String] {
        guard unit.firstKey >= 0 else { return [] }
        return (unit.firstKey..<(unit.firstKey + unit.count)).map {
            unit.keyEndsWithOrder ? keys.string($0) + ":" + order : keys.string($0)
        }
    }

    /// The report's `Refund Type` of `unit` (`Full`, `Partial` or empty).
    func refundType(_ unit: CompactUnit) -> String {
        refundTypes.string(Int32(unit.refundType))
    }
}

/// The report side of one Google month read from its staged files, compact: each order ID once in the shared
/// interner, each unit a `CompactUnit`, found by order number and side. Its units are the rows folded in file order
/// (each staged fact, a run folded at import, absorbed into its unit).
struct CompactReport {
    let orders: SharedOrders
    var texts = UnitTexts()
    var units = BlockArray<CompactUnit>()
    /// Unit number per order number and side (`order * 2 + side`, side 0 charge, 1 refund); -1 when none.
    var unitOf = BlockArray<Int32>()
    /// A batch's order numbers (scratch of `add(_:)`).
    private var numbers: [Int32] = []

    /// An empty side numbering its orders in `orders`.
    init(orders: SharedOrders) {
        self.orders = orders
    }

    /// Adds a batch of runs (`EarningsRuns`, numbered in the texts this side takes at the end), in file order:
    /// their orders numbered first, under one taking of the shared lock; a run of an order and side already seen
    /// is absorbed into its unit.
    mutating func add(_ runs: EarningsRuns) {
        orders.intern(runs.orderBytes, ranges: runs.orders, into: &numbers)
        for (index, number) in numbers.enumerated() {
            let slot = Int(number) * 2 + Int(runs.sides[index])
            while unitOf.count <= slot { unitOf.append(-1) }
            if unitOf[slot] < 0 {
                unitOf[slot] = Int32(units.count)
                units.append(runs.units[index])
            } else {
                units[Int(unitOf[slot])].absorb(runs.units[index])
            }
        }
    }

    /// The unit number of order number `order` on `side` (0 charge, 1 refund; -1: none).
    func unitNumber(order: Int32, side: Int) -> Int32 {
        let slot = Int(order) * 2 + side
        return slot < unitOf.count ? unitOf[slot] : -1
    }

    /// Whether order number `order` has a unit on `side`.
    func has(order: Int32, side: Int) -> Bool {
        unitNumber(order: order, side: side) >= 0
    }

    /// Whether the order `text` has a unit on `side` (while the orders' look-up table is kept).
    func has(order text: String, side: Int) -> Bool {
        orders.interned.find(text).map { has(order: $0, side: side) } ?? false
    }

    /// The unit of order number `order` on `side`.
    func unit(order: Int32, side: Int) -> CompactUnit? {
        let unit = unitNumber(order: order, side: side)
        return unit >= 0 ? units[Int(unit)] : nil
    }
}

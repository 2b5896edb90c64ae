import CompactMemory

/// The units of a few orders of a period looked up together before any of them is categorised: first every unit
/// number, then every unit, then the first byte of each order ID and database key. The items are written in the
/// order of the order IDs' bytes while units, IDs and keys lie in the order they arrived, so each look-up is a
/// cache miss; done this way the misses of a batch overlap instead of following one another.
final class UnitBatch {
    /// Orders per batch.
    static let size = 32
    /// Per order of the batch and side (`index * 2 + side`): the report's and the database's unit, in memory of the
    /// batch's own (an array read while the batch fills the next would be copied).
    private let report = UnsafeMutablePointer<CompactUnit?>.allocate(capacity: size * 2)
    private let database = UnsafeMutablePointer<CompactUnit?>.allocate(capacity: size * 2)
    private let reportNumbers = UnsafeMutablePointer<Int32>.allocate(capacity: size * 2)
    private let databaseNumbers = UnsafeMutablePointer<Int32>.allocate(capacity: size * 2)
    /// What was read ahead (kept so that the reads are not left out as unused).
    private(set) var touched: Int32 = 0

    init() {
        report.initialize(repeating: nil, count: Self.size * 2)
        database.initialize(repeating: nil, count: Self.size * 2)
        reportNumbers.initialize(repeating: -1, count: Self.size * 2)
        databaseNumbers.initialize(repeating: -1, count: Self.size * 2)
    }

    deinit {
        report.deallocate()
        database.deallocate()
        reportNumbers.deallocate()
        databaseNumbers.deallocate()
    }

    /// The report's unit of the batch's order `index` on `side`.
    func reportUnit(_ index: Int, _ side: Int) -> CompactUnit? { report[index * 2 + side] }

    /// The database's unit of the batch's order `index` on `side`.
    func databaseUnit(_ index: Int, _ side: Int) -> CompactUnit? { database[index * 2 + side] }

    /// Looks up the units of `orders` (at most `size`) in period `period` of both sides.
    func load(_ orders: ArraySlice<ByteOrder.Entry>, report reportSide: CompactReport, database databaseSide: CompactDatabase,
              period: Int, orderIDs: ByteInterner) {
        precondition(orders.count <= Self.size, "\(orders.count) orders in a batch of \(Self.size)")
        var slot = 0
        for entry in orders {
            for side in 0..<2 {
                reportNumbers[slot] = reportSide.unitNumber(order: entry.index, side: side)
                databaseNumbers[slot] = databaseSide.unitNumber(order: entry.index, period: period, side: side)
                slot += 1
            }
        }
        for slot in 0..<(orders.count * 2) {
            let r = reportNumbers[slot], d = databaseNumbers[slot]
            report[slot] = r >= 0 ? reportSide.units[Int(r)] : nil
            database[slot] = d >= 0 ? databaseSide.units[Int(d)] : nil
        }
        var touched = self.touched
        for (index, entry) in orders.enumerated() {
            touched &+= orderIDs.arena.firstByte(entry.index)
            for side in 0..<2 {
                if let unit = database[index * 2 + side], unit.firstKey >= 0 { touched &+= databaseSide.texts.keys.firstByte(unit.firstKey) }
            }
        }
        self.touched = touched
    }
}

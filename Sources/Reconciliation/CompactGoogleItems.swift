/// The items of a Google month read from its zip, from the compact sides (`CompactReport`, `CompactDatabase`):
/// the same items, in the same order, as `GoogleCategorizer.items` gives for the same units as dictionaries. Each
/// unit becomes a `UnitSide` only for the moment it is categorised.
extension GoogleCategorizer {
    /// Hands each item of `period` to `body` in key order (order ID bytes, then charge before refund). The report
    /// side of `period` is `report`; the neighbouring periods' report sides are `staged` (by period label), and every
    /// period's database side is in `database`. Orders only the database has are interned into `report.orders`.
    func forEachItem(report: inout CompactReport, database: CompactDatabase, staged: [String: [UnitKey: UnitSide]],
                     period: ReconciliationPeriod, _ body: (ReconciliationItem) throws -> Void) rethrows {
        let previous = (period.previous ?? period).label, next = (period.next ?? period).label
        guard let current = database.periodIndex(period.label) else { return }
        // The database units of the period by report order number and side.
        var databaseUnit = [Int32](repeating: -1, count: report.orders.count * 2)
        let width = database.periods.count * 2
        for order in 0..<database.orders.count {
            for side in 0..<2 {
                let slot = order * width + current * 2 + side
                guard slot < database.unitOf.count, database.unitOf[slot] >= 0 else { continue }
                let number = database.orders.withBytes(Int32(order)) { report.orders.intern($0) }
                if databaseUnit.count < report.orders.count * 2 {
                    databaseUnit += [Int32](repeating: -1, count: report.orders.count * 2 - databaseUnit.count)
                }
                databaseUnit[Int(number) * 2 + side] = database.unitOf[slot]
            }
        }
        var sorted = Array(0..<Int32(report.orders.count))
        let orders = report.orders
        if zip(sorted, sorted.dropFirst()).contains(where: { !orders.less($0, $1) }) {
            sorted.sort { orders.less($0, $1) }
        }
        func reportSide(_ label: String, _ key: UnitKey) -> UnitSide? {
            guard label == period.label else { return staged[label]?[key] }
            guard let number = report.orders.find(key.order) else { return nil }
            return report.side(order: number, side: key.side == "charge" ? 0 : 1)
        }
        func databaseSide(_ label: String, _ key: UnitKey) -> UnitSide? {
            guard let index = database.periodIndex(label) else { return nil }
            var order = key.order
            return order.withUTF8 { database.side(order: UnsafeRawBufferPointer($0), period: index, side: key.side == "charge" ? 0 : 1) }
        }
        for order in sorted {
            for side in 0..<2 {
                let slot = Int(order) * 2 + side
                let reportUnit = report.side(order: order, side: side)
                let databaseUnit = databaseUnit[slot] >= 0 ? database.texts.side(database.units[Int(databaseUnit[slot])]) : nil
                guard reportUnit != nil || databaseUnit != nil else { continue }
                let key = UnitKey(order: orders.string(order), side: side == 0 ? "charge" : "refund")
                let (category, detail) = categorize(key, report: reportUnit, database: databaseUnit, start: period.start,
                                                    end: period.end) { neighbour, key in
                    switch neighbour {
                    case .previousReport: reportSide(previous, key)
                    case .previousDatabase: databaseSide(previous, key)
                    case .nextReport: reportSide(next, key)
                    case .nextDatabase: databaseSide(next, key)
                    }
                }
                try body(Self.item(key, report: reportUnit, database: databaseUnit, category: category, detail: detail))
            }
        }
    }
}

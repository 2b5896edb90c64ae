/// The items of a Google month read from its zip, from the compact sides (`CompactReport`, `CompactDatabase`):
/// the same items, in the same order, as `GoogleCategorizer.items` gives for the same units as dictionaries. Each
/// unit becomes a `UnitSide` only for the moment it is categorised.
extension GoogleCategorizer {
    /// Hands each item of `period` to `body` in key order (order ID bytes, then charge before refund). The report
    /// side of `period` is `report`; the neighbouring periods' report sides are `staged` (by period label), and every
    /// period's database side is in `database`. Both sides number their orders in the same `SharedOrders`.
    /// With a `sink`, a matched unit of a summed row the sink already holds goes to it without an item
    /// (`CompactMatch`); every other unit still goes to `body`.
    func forEachItem(report: CompactReport, database: CompactDatabase, staged: [String: [UnitKey: UnitSide]],
                     period: ReconciliationPeriod, sink: ReconciliationItemSink? = nil,
                     _ body: (ReconciliationItem) throws -> Void) throws {
        let previous = (period.previous ?? period).label, next = (period.next ?? period).label
        guard let current = database.periodIndex(period.label) else { return }
        // The look-up table is not needed once both sides are read: an order is found again in the sorted numbers.
        report.orders.releaseTable()
        let orders = report.orders.interned
        let sorted = Self.byteOrder(orders)
        func reportSide(_ label: String, _ key: UnitKey) -> UnitSide? {
            guard label == period.label else { return staged[label]?[key] }
            guard let number = sorted.find(key.order, in: orders) else { return nil }
            return report.side(order: number, side: key.side == "charge" ? 0 : 1)
        }
        func databaseSide(_ label: String, _ key: UnitKey) -> UnitSide? {
            guard let index = database.periodIndex(label), let number = sorted.find(key.order, in: orders) else { return nil }
            return database.side(order: number, text: key.order, period: index, side: key.side == "charge" ? 0 : 1)
        }
        // Report currency number → the database's number of the same text (-1: none).
        let currencies = (0..<Int32(report.texts.currencies.count)).map { number in
            report.texts.currencies.withBytes(number) { database.texts.currencies.find($0) } ?? -1
        }
        var rows: [CompactMatch.SumKey: Int] = [:]
        let scratch = LineScratch(), detail = LineScratch()
        for order in sorted {
            for side in 0..<2 {
                guard report.has(order: order, side: side) || database.has(order: order, period: current, side: side) else { continue }
                var newRow: CompactMatch.SumKey?
                if let sink, let r = report.unit(order: order, side: side),
                   let d = database.unit(order: order, period: current, side: side),
                   Self.isPlainMatch(isCharge: side == 0, sameCurrency: currencies[Int(r.currency)] == d.currency,
                                     report: (Int64(r.count), r.gross), database: (Int64(d.count), d.gross)) {
                    let match = CompactMatch(order: order, side: side, report: r, database: d)
                    if let row = rows[match.sumKey] {
                        try sink.addMatched(row: row, reportUnits: Int64(r.count), databaseUnits: Int64(d.count), reportGross: r.gross,
                                            databaseGross: d.gross, storeFee: r.fee, tax: r.tax) { bytes, line in
                            ReconciliationCSV.appendMatched(match, line: line, orders: orders, report: report.texts,
                                                            database: database.texts, scratch: scratch, detail: detail, to: &bytes)
                        }
                        continue
                    }
                    newRow = match.sumKey
                }
                let key = UnitKey(order: orders.string(order), side: side == 0 ? "charge" : "refund")
                let reportUnit = report.side(order: order, side: side)
                let databaseUnit = database.side(order: order, text: key.order, period: current, side: side)
                let (category, detail) = categorize(key, report: reportUnit, database: databaseUnit, start: period.start,
                                                    end: period.end) { neighbour, key in
                    switch neighbour {
                    case .previousReport: reportSide(previous, key)
                    case .previousDatabase: databaseSide(previous, key)
                    case .nextReport: reportSide(next, key)
                    case .nextDatabase: databaseSide(next, key)
                    }
                }
                let item = Self.item(key, report: reportUnit, database: databaseUnit, category: category, detail: detail)
                try body(item)
                if let newRow, let sink, let row = sink.stored.summedIndex(of: item) { rows[newRow] = row }
            }
        }
    }

    /// The order numbers of `orders` sorted by their bytes: by their first 12 bytes as two big-endian numbers, the
    /// whole IDs compared only on a tie.
    static func byteOrder(_ orders: ByteInterner) -> ByteOrder {
        var entries: [ByteOrder.Entry] = []
        entries.reserveCapacity(orders.count)
        for index in 0..<Int32(orders.count) {
            orders.withBytes(index) { bytes in entries.append(ByteOrder.Entry(bytes, index: index)) }
        }
        InPlaceSort.sort(&entries) { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return orders.less(a.index, b.index)
        }
        return ByteOrder(entries: entries)
    }
}

/// Order numbers in the order of their bytes (16 bytes each: a 12-byte prefix and the number).
struct ByteOrder: Sequence {
    struct Entry {
        var high: UInt64
        var low: UInt32
        var index: Int32

        /// The entry of value `index`, whose bytes are `bytes`: their first 12 as two big-endian numbers.
        init(_ bytes: UnsafeRawBufferPointer, index: Int32) {
            var words: (UInt64, UInt32) = (0, 0)
            withUnsafeMutableBytes(of: &words) { raw in
                for offset in 0..<Swift.min(12, bytes.count) { raw[offset < 8 ? 7 - offset : 19 - offset] = bytes[offset] }
            }
            (high, low, self.index) = (words.0, words.1, index)
        }
    }

    let entries: [Entry]

    /// The number of `text` among `orders` (whose numbers these are, in order), found by halving.
    func find(_ text: String, in orders: ByteInterner) -> Int32? {
        var text = text
        return text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let probe = Entry(bytes, index: -1)
            func compare(_ entry: Entry) -> Int {
                if entry.high != probe.high { return entry.high < probe.high ? -1 : 1 }
                if entry.low != probe.low { return entry.low < probe.low ? -1 : 1 }
                return orders.withBytes(entry.index) { held in
                    let common = Swift.min(held.count, bytes.count)
                    for offset in 0..<common where held[offset] != bytes[offset] { return held[offset] < bytes[offset] ? -1 : 1 }
                    return held.count == bytes.count ? 0 : (held.count < bytes.count ? -1 : 1)
                }
            }
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                let order = compare(entries[middle])
                if order == 0 { return entries[middle].index }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    func makeIterator() -> LazyMapSequence<[Entry], Int32>.Iterator { entries.lazy.map(\.index).makeIterator() }
}

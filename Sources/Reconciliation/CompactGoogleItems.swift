import CompactMemory
import Foundation

/// The items of a Google month from the compact sides (`CompactReport`, `CompactDatabase`), in the order of the
/// order IDs' bytes, charge before refund.
extension GoogleCategorizer {
    /// Orders per chunk of the items' writing (`inOrder` produces the chunks on the machine's cores).
    static let itemChunk = 2_048
    /// Chunks produced at once (`inOrder`): what is held between producing and consuming.
    static let chunksAtOnce = 4

    /// Produces chunks `0..<count` on the machine's cores (`DispatchQueue.concurrentPerform`, `chunksAtOnce` at a time) and
    /// hands each output to `consume` on the calling thread, in chunk order.
    static func inOrder<Output>(count: Int, produce: (Int) -> Output, consume: (Output) throws -> Void) rethrows {
        try withoutActuallyEscaping(produce) { produce in
            var start = 0
            while start < count {
                let window = ChunkWindow(start: start, count: min(chunksAtOnce, count - start), produce: produce)
                DispatchQueue.concurrentPerform(iterations: window.count) { window.produce(offset: $0) }
                // concurrentPerform returns once every offset ran, so every output is there.
                for case let output? in window.outputs { try consume(output) }
                start += window.count
            }
        }
    }

    /// The outputs of `count` chunks from `start`, each produced on whichever thread takes it.
    final class ChunkWindow<Output>: @unchecked Sendable {
        let start: Int, count: Int
        let make: (Int) -> Output
        private let lock = NSLock()
        private(set) var outputs: [Output?]

        init(start: Int, count: Int, produce: @escaping (Int) -> Output) {
            (self.start, self.count, make) = (start, count, produce)
            outputs = Array(repeating: nil, count: count)
        }

        /// Produces chunk `start + offset` and keeps its output.
        func produce(offset: Int) {
            let output = make(start + offset)
            lock.withLock { outputs[offset] = output }
        }
    }

    /// The lines of one chunk of orders: the CSV bytes (with a sink), and per unit in order either a plain match
    /// (`CompactMatch`, its item built only if needed) or the item categorised.
    struct ChunkLines {
        var bytes: [UInt8] = []
        var lines = 0
        /// Per unit in order: true for a plain match (the next of `matches`), false for an item (the next of `items`).
        var kinds: [Bool] = []
        var matches: [CompactMatch] = []
        var items: [ReconciliationItem] = []
        /// What the unit look-ups read ahead (`UnitBatch.touched`).
        var touched: Int32 = 0
    }

    /// Hands each item of `period` in key order (order ID bytes, then charge before refund) to `sink` — its CSV line,
    /// totals and stored row — or, without a sink, to `body`. The report sides of `period` and its neighbours are
    /// `reports` (by period label), and every period's database side is in `database`. Every side numbers its orders
    /// in the same `SharedOrders`. The sorted orders are cut into chunks
    /// of `chunkSize` that the cores categorise and format (`inOrder`); lines are numbered from per-chunk
    /// counts, and the sink takes the chunks in order. A plain match (`isPlainMatch`) is formatted straight from the
    /// compact units and becomes an item only for the first unit of its summed stored row (or without a sink).
    func forEachItem(reports: [String: CompactReport], database: CompactDatabase,
                     period: ReconciliationPeriod, sink: ReconciliationItemSink? = nil, chunkSize: Int = itemChunk,
                     _ body: (ReconciliationItem) throws -> Void) throws {
        let previous = (period.previous ?? period).label, next = (period.next ?? period).label
        guard let current = database.periodIndex(period.label) else { return }
        let report = reports[period.label] ?? CompactReport(orders: database.orders)
        // The look-up table is not needed once every side is read: every side numbers its orders in it.
        report.orders.releaseTable()
        let orders = report.orders.interned
        let sorted = Self.byteOrder(orders)
        let entries = sorted.entries
        let size = max(1, chunkSize)
        let chunks = (entries.count + size - 1) / size
        func range(_ chunk: Int) -> Range<Int> { (chunk * size)..<min(entries.count, (chunk + 1) * size) }
        func present(_ order: Int32, _ side: Int) -> Bool {
            report.has(order: order, side: side) || database.has(order: order, period: current, side: side)
        }
        // Lines before each chunk.
        var before = [0]
        try Self.inOrder(count: chunks, produce: { chunk in
            range(chunk).reduce(0) { count, index in count + (present(entries[index].index, 0) ? 1 : 0) + (present(entries[index].index, 1) ? 1 : 0) }
        }, consume: { before.append(before[before.count - 1] + $0) })
        // A neighbour's unit of the same order: every side numbers its orders in the same table.
        let neighbourPeriods = (previous: database.periodIndex(previous), next: database.periodIndex(next))
        func neighbourUnit(_ neighbour: Neighbour, order: Int32, side: Int) -> CompactUnit? {
            switch neighbour {
            case .previousReport: reports[previous]?.unit(order: order, side: side)
            case .nextReport: reports[next]?.unit(order: order, side: side)
            case .previousDatabase: neighbourPeriods.previous.flatMap { database.unit(order: order, period: $0, side: side) }
            case .nextDatabase: neighbourPeriods.next.flatMap { database.unit(order: order, period: $0, side: side) }
            }
        }
        // Report currency number → the database's number of the same text (-1: none).
        let currencies = (0..<Int32(report.texts.currencies.count)).map { number in
            report.texts.currencies.withBytes(number) { database.texts.currencies.find($0) } ?? -1
        }
        let format = sink != nil
        let firstLine = sink?.csv.count ?? 0
        let produce = { (chunk: Int) -> ChunkLines in
            var out = ChunkLines()
            let units = before[chunk + 1] - before[chunk]
            out.kinds.reserveCapacity(units)
            out.matches.reserveCapacity(units)
            if format { out.bytes.reserveCapacity(units * 256) }
            var detail: [UInt8] = []
            var line = firstLine + before[chunk]
            let batch = UnitBatch()
            let orderRange = range(chunk)
            var batchStart = orderRange.lowerBound
            while batchStart < orderRange.upperBound {
                let batchEnd = min(batchStart + UnitBatch.size, orderRange.upperBound)
                batch.load(entries[batchStart..<batchEnd], report: report, database: database, period: current, orderIDs: orders)
                for index in batchStart..<batchEnd {
                    let order = entries[index].index
                    for side in 0..<2 {
                        let reportCompact = batch.reportUnit(index - batchStart, side)
                        let databaseCompact = batch.databaseUnit(index - batchStart, side)
                        guard reportCompact != nil || databaseCompact != nil else { continue }
                        line += 1
                        if let r = reportCompact, let d = databaseCompact,
                           Self.isPlainMatch(isCharge: side == 0, sameCurrency: currencies[Int(r.currency)] == d.currency,
                                             report: (Int64(r.count), r.gross), database: (Int64(d.count), d.gross)) {
                            let match = CompactMatch(order: order, side: side, report: r, database: d)
                            if format {
                                ReconciliationCSV.appendMatched(match, line: line, orders: orders, report: report.texts,
                                                                database: database.texts, detail: &detail, to: &out.bytes)
                            }
                            out.kinds.append(true)
                            out.matches.append(match)
                            continue
                        }
                        let text = orders.string(order)
                        let (category, detail) = categorize(order: text, side: side, report: reportCompact, database: databaseCompact,
                                                            reportTexts: report.texts, databaseTexts: database.texts,
                                                            start: period.start, end: period.end) {
                            neighbourUnit($0, order: order, side: side)
                        }
                        let item = Self.item(order: text, side: side, report: reportCompact, database: databaseCompact,
                                             reportTexts: report.texts, databaseTexts: database.texts, category: category, detail: detail)
                        if format { ReconciliationCSV.append(item, line: line, to: &out.bytes) }
                        out.kinds.append(false)
                        out.items.append(item)
                    }
                }
                batchStart = batchEnd
            }
            out.touched = batch.touched
            out.lines = line - firstLine - before[chunk]
            return out
        }
        // A plain match as its item (what `categorize` gives it: matched, no detail).
        func matchedItem(_ match: CompactMatch) -> ReconciliationItem {
            Self.item(order: orders.string(match.order), side: match.side, report: match.report, database: match.database,
                      reportTexts: report.texts, databaseTexts: database.texts, category: .matched, detail: "")
        }
        var rows: [CompactMatch.SumKey: Int] = [:]
        try Self.inOrder(count: chunks, produce: produce) { out in
            if let sink { try sink.csv.addFormatted(out.bytes, lines: out.lines) }
            var nextMatch = 0, nextItem = 0
            for isMatch in out.kinds {
                guard isMatch else {
                    let item = out.items[nextItem]
                    nextItem += 1
                    if let sink { sink.record(item) } else { try body(item) }
                    continue
                }
                let match = out.matches[nextMatch]
                nextMatch += 1
                guard let sink else {
                    try body(matchedItem(match))
                    continue
                }
                if let row = rows[match.sumKey] {
                    let r = match.report, d = match.database
                    sink.recordMatched(row: row, reportUnits: Int64(r.count), databaseUnits: Int64(d.count), reportGross: r.gross,
                                       databaseGross: d.gross, storeFee: r.fee, tax: r.tax)
                    continue
                }
                let item = matchedItem(match)
                sink.record(item)
                if let row = sink.stored.summedIndex(of: item) { rows[match.sumKey] = row }
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
        entries.sort { a, b in
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
            if bytes.count >= 12 {
                high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                low = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                self.index = index
                return
            }
            var words: (UInt64, UInt32) = (0, 0)
            withUnsafeMutableBytes(of: &words) { raw in
                for offset in 0..<Swift.min(12, bytes.count) { raw[offset < 8 ? 7 - offset : 19 - offset] = bytes[offset] }
            }
            (high, low, self.index) = (words.0, words.1, index)
        }
    }

    let entries: [Entry]

    func makeIterator() -> LazyMapSequence<[Entry], Int32>.Iterator { entries.lazy.map(\.index).makeIterator() }
}

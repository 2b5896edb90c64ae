/// The items of a Google month, written order by order as the sorted stream completes each order
/// (`GoogleMonthStream`): in the order of the order IDs' bytes, charge before refund. Only running state is kept: the
/// next line number, the CSV bytes not yet handed to the writer, the summed stored rows' numbers.
struct GoogleMonthItems {
    let categorizer: GoogleCategorizer
    let period: ReconciliationPeriod
    /// Positions in `[previous, month, next]` (the first with the label, as a database row's period is found).
    let current: Int, previous: Int, next: Int
    let sink: ReconciliationItemSink?
    /// The CSV's line count before the month's first item.
    private var line: Int
    /// Formatted lines not yet handed to the sink's writer, and how many.
    private var bytes: [UInt8] = []
    private var lines = 0
    private var detail: [UInt8] = []
    /// The summed stored row of each matched unit's side, product, country and currency (report numbers).
    private var rows: [CompactMatch.SumKey: Int] = [:]
    /// Report currency number → the database's number of the same text (-1: none), rebuilt when a table grows.
    private var currencies: [Int32] = []
    private var currencyTables = (0, 0)

    /// Hand bytes to the writer in pieces of about this size (the writer's own buffer size).
    static let flushAt = ReconciliationCSVWriter.flushAt

    /// The items of `period` (its neighbours at `previous` and `next`), to `sink` or, without one, as items.
    init(categorizer: GoogleCategorizer, period: ReconciliationPeriod, periods: [ReconciliationPeriod], sink: ReconciliationItemSink?) {
        func index(_ label: String) -> Int { periods.firstIndex { $0.label == label } ?? 1 }
        self.categorizer = categorizer
        self.period = period
        current = index(period.label)
        previous = index((period.previous ?? period).label)
        next = index((period.next ?? period).label)
        self.sink = sink
        line = sink?.csv.count ?? 0
    }

    /// Writes the items of `order` (its charge, then its refund, those the month has on either side); a plain match
    /// (`isPlainMatch`) is formatted straight from the units and becomes an item only for the first unit of its
    /// summed stored row (or without a sink, for `body`).
    mutating func add(_ order: inout GoogleOrderUnits, _ body: (ReconciliationItem) throws -> Void) throws {
        order.fold()
        for side in 0..<2 {
            let report = order.report(period: current, side: side)
            let database = order.database(period: current, side: side)
            guard report != nil || database != nil else { continue }
            line += 1
            if let r = report, let d = database,
               GoogleCategorizer.isPlainMatch(isCharge: side == 0, sameCurrency: sameCurrency(r, d, order),
                                              report: (Int64(r.count), r.gross), database: (Int64(d.count), d.gross)) {
                try matched(CompactMatch(side: side, report: r, database: d), order, body)
                continue
            }
            let text = order.order
            let neighbours = (previousReport: order.report(period: previous, side: side),
                              nextReport: order.report(period: next, side: side),
                              previousDatabase: order.database(period: previous, side: side),
                              nextDatabase: order.database(period: next, side: side))
            let (category, detail) = categorizer.categorize(
                order: text, side: side, report: report, database: database, reportTexts: order.reportTexts,
                databaseTexts: order.databaseTexts, start: period.start, end: period.end) { neighbour in
                switch neighbour {
                case .previousReport: neighbours.previousReport
                case .nextReport: neighbours.nextReport
                case .previousDatabase: neighbours.previousDatabase
                case .nextDatabase: neighbours.nextDatabase
                }
            }
            let item = GoogleCategorizer.item(order: text, side: side, report: report, database: database,
                                              reportTexts: order.reportTexts, databaseTexts: order.databaseTexts,
                                              category: category, detail: detail)
            guard let sink else {
                try body(item)
                continue
            }
            ReconciliationCSV.append(item, line: line, to: &bytes)
            lines += 1
            sink.record(item)
            try flushIfFull()
        }
    }

    /// Hands the lines not yet written to the sink's writer (call once the stream has ended).
    mutating func finish() throws {
        guard let sink, lines > 0 else { return }
        try sink.csv.addFormatted(bytes, lines: lines)
        bytes.removeAll(keepingCapacity: true)
        lines = 0
    }

    private mutating func flushIfFull() throws {
        if bytes.count >= Self.flushAt { try finish() }
    }

    /// Whether the report's and the database's currencies are the same text.
    private mutating func sameCurrency(_ report: CompactUnit, _ database: CompactUnit, _ order: GoogleOrderUnits) -> Bool {
        let tables = (order.reportTexts.currencies.count, order.databaseTexts.currencies.count)
        if tables != currencyTables {
            currencyTables = tables
            currencies = (0..<Int32(tables.0)).map { number in
                order.reportTexts.currencies.withBytes(number) { order.databaseTexts.currencies.find($0) } ?? -1
            }
        }
        return currencies[Int(report.currency)] == database.currency
    }

    /// A plain match: its line written from the units; its amounts added to its summed stored row, whose first unit
    /// is recorded as an item.
    private mutating func matched(_ match: CompactMatch, _ order: GoogleOrderUnits, _ body: (ReconciliationItem) throws -> Void) throws {
        func item() -> ReconciliationItem {
            GoogleCategorizer.item(order: order.order, side: match.side, report: match.report, database: match.database,
                                   reportTexts: order.reportTexts, databaseTexts: order.databaseTexts, category: .matched, detail: "")
        }
        guard let sink else {
            try body(item())
            return
        }
        order.id.withUnsafeBytes { id in
            ReconciliationCSV.appendMatched(match, line: line, order: id, report: order.reportTexts, database: order.databaseTexts,
                                            detail: &detail, to: &bytes)
        }
        lines += 1
        if let row = rows[match.sumKey] {
            let r = match.report, d = match.database
            sink.recordMatched(row: row, reportUnits: Int64(r.count), databaseUnits: Int64(d.count), reportGross: r.gross,
                               databaseGross: d.gross, storeFee: r.fee, tax: r.tax)
        } else {
            let first = item()
            sink.record(first)
            if let row = sink.stored.summedIndex(of: first) { rows[match.sumKey] = row }
        }
        try flushIfFull()
    }
}

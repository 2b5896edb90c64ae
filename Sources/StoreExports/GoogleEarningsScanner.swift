#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a Google Play earnings CSV as a stream of byte chunks and emits one row at a time, without building a
/// string per field or holding the file: a plain row (quoted cells without quotes or line breaks inside, the plain
/// spellings) is read straight from its bytes, in one pass that also finds where it ends; any other row — and
/// every defective row — is read by `GoogleEarningsParser`'s own row reader, so it is accepted or rejected exactly
/// as the whole-file parser does, with the same file, line, column and reason. One difference in what is reported:
/// the whole-file parser checks the encoding and the quoting of every line before any field, this scanner reports
/// the first defect in file order — except when it reads full rows (`feedRows`, the import): then every defect is
/// held until `finishRows`, which throws the one the whole-file parser throws (see `Refusal`), so a file is refused
/// for the same reason whether it is read whole or as a stream, and a damaged archive around it still comes first.
public struct GoogleEarningsScanner {
    /// The file name for errors (`archive.zip/member.csv`).
    public let file: String
    private var layout: HeaderLayout?
    private var columns = Columns()
    /// Bytes of a record not yet ended by a newline (carried from one chunk to the next).
    private var pending: [UInt8] = []
    /// Whether `pending` holds an open quote.
    private var inQuote = false
    /// The line the next record starts on.
    private var line = 1
    private var started = false
    private var sawText = false
    /// A first record made only of blanks: the header error is raised only if text follows (else: empty file).
    private var blankHeader: (bytes: [UInt8], line: Int)?
    private var cells = CellRanges()
    /// The last date, time, rate and product type read (an order's rows repeat them): their bytes are compared
    /// instead of read again.
    private var lastDate = CellMemo<CalendarDate?>(nil)
    private var lastTime = CellMemo(Int64(0))
    private var lastChecked = (rate: CellMemo(()), productType: CellMemo(()))
    /// Rows emitted.
    public private(set) var rows = 0
    /// Whether full rows are read (`feedRows`): every row by the parser's reader, defects held as `refusal`.
    private var fullRows = false
    /// The defect the whole-file parser would report, of those met so far (full rows only).
    private var refusal: (error: StoreReportError, rank: Refusal)?

    /// What the whole-file parser checks first: the encoding of the whole file, then the splitting of every record
    /// (header and quoting), then the rows' fields. Of two defects of one rank the earlier in the file is reported.
    enum Refusal: Int, Comparable {
        case encoding, structure, field

        static func < (a: Refusal, b: Refusal) -> Bool { a.rawValue < b.rawValue }
    }

    /// A scanner of the file named `file`.
    public init(file: String) {
        self.file = file
    }

    /// Where the bytes fed so far end: the last line and the column after its last character (for a container
    /// that breaks off).
    public var position: (line: Int, column: Int) {
        var lines = line, column = 1
        for byte in pending {
            if byte == 0x0A { lines += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (lines, column)
    }

    /// Reads the records completed by `chunk`; `emit` receives each row.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (GoogleEarningsEntry) throws -> Void) throws {
        try feedFields(chunk) { try emit(GoogleEarningsEntry($0)) }
    }

    /// Reads the last record (a file need not end with a newline) and checks the file was not empty.
    public mutating func finish(_ emit: (GoogleEarningsEntry) throws -> Void) throws {
        try finishFields { try emit(GoogleEarningsEntry($0)) }
    }

    /// Reads the records completed by `chunk`; `emit` receives each row's fields, lent for the call.
    public mutating func feedFields(_ chunk: UnsafeRawBufferPointer, _ emit: (GoogleEarningsFields) throws -> Void) throws {
        try feed(chunk, emit, { try GoogleEarningsEntry($0).withFields(emit) })
    }

    /// Reads the records completed by `chunk` as full rows, each by the whole-file parser's row reader; `emit`
    /// receives each row until the first defect, which is held (see the type's summary) and thrown by `finishRows`.
    public mutating func feedRows(_ chunk: UnsafeRawBufferPointer, _ emit: (GoogleEarningsRow) throws -> Void) throws {
        fullRows = true
        try feed(chunk, { _ in }, emit)
    }

    /// Reads the last record and throws the defect the whole-file parser would report, if any.
    public mutating func finishRows(_ emit: (GoogleEarningsRow) throws -> Void) throws {
        fullRows = true
        try finish({ _ in }, emit)
    }

    /// Holds `error` when full rows are read (the whole-file parser's order decides which defect is reported);
    /// otherwise throws it.
    private mutating func refuse(_ error: Error, _ rank: Refusal) throws {
        guard fullRows, let error = error as? StoreReportError else { throw error }
        if let held = refusal, held.rank <= rank { return }
        refusal = (error, rank)
    }

    private mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (GoogleEarningsFields) throws -> Void,
                               _ row: (GoogleEarningsRow) throws -> Void) throws {
        if refusal?.rank == .encoding { return }
        if !started {
            pending.append(contentsOf: chunk)
            guard pending.count >= 3 else { return }
            try begin(emit, row)
            return
        }
        var start = 0
        let count = chunk.count
        guard let base = chunk.baseAddress else { return }
        while start < count {
            // A plain row that ends in this chunk is split, checked and read in one pass.
            if !fullRows, pending.isEmpty, layout != nil,
               let next = try plainRow(chunk, from: start, line: line, needsNewline: true, emit) {
                start = next
                continue
            }
            // The next newline outside quotes; a quote anywhere on the way toggles the state.
            guard let found = memchr(base + start, 0x0A, count - start) else { break }
            let newline = base.distance(to: UnsafeRawPointer(found))
            var quotes = 0
            var scan = start
            while scan < newline, let quote = memchr(base + scan, 0x22, newline - scan) {
                quotes += 1
                scan = base.distance(to: UnsafeRawPointer(quote)) + 1
            }
            if quotes % 2 == 1 { inQuote.toggle() }
            if inQuote {
                pending.append(contentsOf: chunk[start...newline])
                start = newline + 1
                continue
            }
            if pending.isEmpty {
                try record(UnsafeRawBufferPointer(rebasing: chunk[start...newline]), emit, row)
            } else {
                pending.append(contentsOf: chunk[start...newline])
                let carried = pending
                pending.removeAll(keepingCapacity: true)
                try carried.withUnsafeBytes { try record($0, emit, row) }
            }
            start = newline + 1
        }
        if start < count {
            let rest = chunk[start...]
            if rest.reduce(0, { $0 + ($1 == 0x22 ? 1 : 0) }) % 2 == 1 { inQuote.toggle() }
            pending.append(contentsOf: rest)
        }
    }

    /// Reads the last record (a file need not end with a newline) and checks the file was not empty; `emit`
    /// receives the fields of the rows read.
    public mutating func finishFields(_ emit: (GoogleEarningsFields) throws -> Void) throws {
        try finish(emit, { try GoogleEarningsEntry($0).withFields(emit) })
    }

    private mutating func finish(_ emit: (GoogleEarningsFields) throws -> Void, _ row: (GoogleEarningsRow) throws -> Void) throws {
        if !started {
            guard !pending.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
            try begin(emit, row)
        }
        if !pending.isEmpty, refusal?.rank != .encoding {
            let carried = pending
            pending = []
            try carried.withUnsafeBytes { try record($0, emit, row) }
        }
        if let refusal, refusal.rank == .encoding { throw refusal.error }
        guard sawText else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file (no text)") }
        if let blankHeader { try header(blankHeader.bytes, line: blankHeader.line) }
        if let refusal { throw refusal.error }
        guard layout != nil else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
    }

    /// Checks the first bytes (UTF-16, a UTF-8 byte-order mark) and reads what has been held back for them.
    private mutating func begin(_ emit: (GoogleEarningsFields) throws -> Void, _ row: (GoogleEarningsRow) throws -> Void) throws {
        started = true
        if pending.starts(with: [0xFF, 0xFE]) || pending.starts(with: [0xFE, 0xFF]) {
            try refuse(StoreReportError(file: file, line: 1, column: 1,
                                        reason: "UTF-16 text (byte-order mark \(pending[0] == 0xFF ? "FF FE" : "FE FF")); expected UTF-8"),
                       .encoding)
            pending = []
            sawText = true
            return
        }
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
        let carried = pending
        pending = []
        try carried.withUnsafeBytes { try feed($0, emit, row) }
    }

    /// One record's bytes, with its newline when it has one.
    private mutating func record(_ bytes: UnsafeRawBufferPointer, _ emit: (GoogleEarningsFields) throws -> Void,
                                 _ row: (GoogleEarningsRow) throws -> Void) throws {
        let recordLine = line
        if !fullRows, layout != nil, try plainRow(bytes, from: 0, line: recordLine, needsNewline: false, emit) != nil { return }
        var ascii = true
        var newlines = 0
        var blank = true
        for byte in bytes {
            if byte == 0x0A { newlines += 1 }
            if byte >= 0x80 || byte == 0 { ascii = false }
            if blank, byte != 0x0A, byte != 0x0D, byte != 0x20, byte != 0x09 { blank = false }
        }
        line += newlines
        if !ascii {
            do { try validate(bytes, line: recordLine) } catch { try refuse(error, .encoding); return }
        }
        if !blank { sawText = true }
        // After a defect of the header or the quoting, only the encoding is still read (it is reported first).
        if let refusal, refusal.rank <= .structure { return }
        guard layout != nil else {
            if blankHeader == nil, blank {
                blankHeader = (Array(bytes), recordLine)
                return
            }
            do {
                if let blankHeader, !blank { try header(blankHeader.bytes, line: blankHeader.line) }
                if blankHeader == nil { try header(Array(bytes), line: recordLine) }
            } catch {
                try refuse(error, .structure)
            }
            return
        }
        try ordinaryRows(bytes, line: recordLine, row)
        rows += 1
    }

    /// The header: columns by name as the whole-file parser finds them.
    private mutating func header(_ bytes: [UInt8], line: Int) throws {
        let records = try DelimitedReader(separator: UInt8(ascii: ","), quoting: true, firstLine: line).records(bytes[...], file: file)
        guard let record = records.first else { throw StoreReportError(file: file, line: line, column: 1, reason: "no header row") }
        let layout = try HeaderLayout(header: record, specs: GoogleEarningsParser.columns, file: file)
        self.layout = layout
        columns = Columns(layout)
        blankHeader = nil
    }

    /// The record read by the whole-file parser's reader (exact acceptance and messages).
    private mutating func ordinaryRows(_ bytes: UnsafeRawBufferPointer, line: Int, _ emit: (GoogleEarningsRow) throws -> Void) throws {
        guard let layout else { return }
        let records: [DelimitedRecord]
        do {
            records = try DelimitedReader(separator: UInt8(ascii: ","), quoting: true, firstLine: line).records(Array(bytes)[...], file: file)
        } catch {
            return try refuse(error, .structure)
        }
        // After a defect of a row's fields, only the encoding and the quoting are still read.
        guard refusal == nil else { return }
        for record in records {
            let row: GoogleEarningsRow
            do { row = try GoogleEarningsParser.row(RowCells(record, layout, file: file)) } catch { return try refuse(error, .field) }
            try emit(row)
        }
    }

    /// Throws at the record's first byte that is not UTF-8 text, at its position in the file.
    private func validate(_ bytes: UnsafeRawBufferPointer, line: Int) throws {
        do {
            try ReportText.validate(Array(bytes)[...], file: file)
        } catch let error as StoreReportError {
            throw StoreReportError(file: file, line: line + error.line - 1, column: error.column, reason: error.reason)
        }
    }

    /// Reads the plain row at `chunk[start...]`, emits its fields and returns the offset after it; nil — with
    /// nothing emitted and nothing changed — when the row is not plain or, with `needsNewline`, does not end in
    /// `chunk`, or (without it) ends before `chunk` does: the ordinary reader then decides. Throws only when the row
    /// is not UTF-8 text.
    private mutating func plainRow(_ chunk: UnsafeRawBufferPointer, from start: Int, line: Int, needsNewline: Bool,
                                   _ emit: (GoogleEarningsFields) throws -> Void) throws -> Int? {
        guard let layout else { return nil }
        let cellsAt = cells.prepare(layout.width)
        // Where the first byte of 0x80 or more (or a zero byte) is, if any: the row is checked as UTF-8 from there.
        var unusual = -1
        guard let next = Self.split(chunk, from: start, needsNewline: needsNewline, width: layout.width, into: cellsAt,
                                    unusual: &unusual),
              needsNewline || next == chunk.count else { return nil }
        // Non-ASCII cells are checked in place, from the first unusual byte (all before it is ASCII); the copying
        // validation only places a defect.
        if unusual >= 0, !ReportText.isValid(UnsafeRawBufferPointer(rebasing: chunk[unusual..<next])) {
            try validate(UnsafeRawBufferPointer(rebasing: chunk[start..<next]), line: line)
        }
        guard let fields = fields(chunk, cellsAt, line: line) else { return nil }
        if next > start, chunk[next - 1] == 0x0A { self.line += 1 }
        sawText = true
        rows += 1
        try emit(fields)
        return next
    }

    /// The fields of the row whose cells `split` found at `cells`, or nil when one is not in its plain spelling.
    private mutating func fields(_ bytes: UnsafeRawBufferPointer, _ cells: UnsafeMutablePointer<Range<Int>>,
                                 line: Int) -> GoogleEarningsFields? {
        let c = columns
        func cell(_ index: Int) -> Range<Int> { ByteCells.trimmed(bytes, cells[index]) }
        let order = cell(c.order), type = cell(c.type), refund = cell(c.refund), product = cell(c.product)
        let buyerCurrency = cell(c.buyerCurrency), merchantCurrency = cell(c.merchantCurrency)
        guard !order.isEmpty, !type.isEmpty, !product.isEmpty,
              let epoch = instant(bytes, date: cell(c.date), time: cell(c.time)),
              ByteCells.isCurrency(bytes, buyerCurrency), ByteCells.isCurrency(bytes, merchantCurrency),
              let amount = ByteCells.micros(bytes, cell(c.amountBuyer)), ByteCells.micros(bytes, cell(c.amountMerchant)) != nil,
              lastChecked.rate.check(bytes, cell(c.rate), { ByteCells.decimal($0, $1) != nil }),
              lastChecked.productType.check(bytes, cell(c.productType), { ByteCells.wholeNumber($0, $1).map { $0 == 0 || $0 == 1 } ?? false }),
              let transactionType = Self.transactionType(bytes, type) else { return nil }
        let refundType: GoogleRefundType?
        if refund.isEmpty {
            refundType = nil
        } else if ByteCells.equals(bytes, refund, "Full") {
            refundType = .full
        } else if ByteCells.equals(bytes, refund, "Partial") {
            refundType = .partial
        } else {
            return nil
        }
        func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }
        return GoogleEarningsFields(
            line: line, orderID: slice(order), transactionType: transactionType, refundType: refundType,
            productID: slice(product), buyerCountry: slice(cell(c.country)), buyerCurrency: slice(buyerCurrency),
            amountBuyerMicros: amount, transactionEpochSeconds: epoch)
    }

    /// `Transaction Date` and `Transaction Time` as epoch seconds; the last ones read are remembered, since an
    /// order's rows repeat them.
    private mutating func instant(_ bytes: UnsafeRawBufferPointer, date dateCell: Range<Int>, time timeCell: Range<Int>) -> Int64? {
        let date: CalendarDate
        if lastDate.holds(bytes, dateCell), let remembered = lastDate.value {
            if lastTime.holds(bytes, timeCell) { return lastTime.value }
            date = remembered
        } else {
            guard let read = ByteCells.monthNameDayYear(bytes, dateCell) else { return nil }
            lastDate.remember(bytes, dateCell, as: read)
            lastTime.forget()
            date = read
        }
        guard let epoch = ByteCells.transactionTime(bytes, timeCell, on: date) else { return nil }
        lastTime.remember(bytes, timeCell, as: epoch)
        return epoch
    }

    /// The `Transaction Type` at `range`, read without a string; nil for an unknown value (the row is then read by
    /// the parser, which refuses it with its position).
    public static func transactionType(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> GoogleTransactionType? {
        func named(_ name: StaticString) -> Bool { ByteCells.equals(bytes, range, name) }
        switch range.count {
        case 3 where named("Tax"): return .tax
        case 6 where named("Charge"): return .charge
        case 10 where named("Google fee"): return .googleFee
        case 10 where named("Tax refund"): return .taxRefund
        case 10 where named("Tax rebill"): return .taxRebill
        case 13 where named("Charge refund"): return .chargeRefund
        case 13 where named("Charge rebill"): return .chargeRebill
        case 17 where named("Google fee refund"): return .googleFeeRefund
        case 17 where named("Google fee rebill"): return .googleFeeRebill
        default: return nil
        }
    }

    /// Column positions of the fields the scanner reads.
    struct Columns {
        var order = 0, date = 0, time = 0, type = 0, refund = 0, product = 0, productType = 0, country = 0
        var buyerCurrency = 0, amountBuyer = 0, rate = 0, merchantCurrency = 0, amountMerchant = 0

        init() {}

        init(_ layout: HeaderLayout) {
            func at(_ name: String) -> Int { layout.positions[name] ?? 0 }
            order = at("Description"); date = at("Transaction Date"); time = at("Transaction Time")
            type = at("Transaction Type"); refund = at("Refund Type"); product = at("Product id")
            productType = at("Product Type"); country = at("Buyer Country"); buyerCurrency = at("Buyer Currency")
            amountBuyer = at("Amount (Buyer Currency)"); rate = at("Currency Conversion Rate")
            merchantCurrency = at("Merchant Currency"); amountMerchant = at("Amount (Merchant Currency)")
        }
    }
}

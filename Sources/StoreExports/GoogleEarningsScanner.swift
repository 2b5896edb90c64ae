#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a Google Play earnings CSV as a stream of byte chunks and emits one `GoogleEarningsEntry` per row, without
/// building a string per field or holding the file: a plain row (quoted cells without quotes or line breaks inside,
/// the plain spellings) is read straight from its bytes; any other row — and every defective row — is read by
/// `GoogleEarningsParser`'s own row reader, so it is accepted or rejected exactly as the whole-file parser does, with
/// the same file, line, column and reason. One difference in what is reported: the whole-file parser checks the
/// encoding and the quoting of every line before any field, this scanner reports the first defect in file order.
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
    private var lastOrder: (bytes: [UInt8], text: String) = ([], "")
    private var lastProduct: (bytes: [UInt8], text: String) = ([], "")
    private var lastCountry: (bytes: [UInt8], text: String) = ([], "")
    private var lastCurrency: (bytes: [UInt8], text: String) = ([], "")
    /// Rows emitted.
    public private(set) var rows = 0

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
        if !started {
            pending.append(contentsOf: chunk)
            guard pending.count >= 3 else { return }
            try begin(emit)
            return
        }
        var start = 0
        let count = chunk.count
        guard let base = chunk.baseAddress else { return }
        while start < count {
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
                try record(UnsafeRawBufferPointer(rebasing: chunk[start...newline]), emit)
            } else {
                pending.append(contentsOf: chunk[start...newline])
                let carried = pending
                pending.removeAll(keepingCapacity: true)
                try carried.withUnsafeBytes { try record($0, emit) }
            }
            start = newline + 1
        }
        if start < count {
            let rest = chunk[start...]
            if rest.reduce(0, { $0 + ($1 == 0x22 ? 1 : 0) }) % 2 == 1 { inQuote.toggle() }
            pending.append(contentsOf: rest)
        }
    }

    /// Reads the last record (a file need not end with a newline) and checks the file was not empty.
    public mutating func finish(_ emit: (GoogleEarningsEntry) throws -> Void) throws {
        if !started {
            guard !pending.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
            try begin(emit)
        }
        if !pending.isEmpty {
            let carried = pending
            pending = []
            try carried.withUnsafeBytes { try record($0, emit) }
        }
        guard sawText else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file (no text)") }
        if let blankHeader { try header(blankHeader.bytes, line: blankHeader.line) }
        guard layout != nil else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
    }

    /// Checks the first bytes (UTF-16, a UTF-8 byte-order mark) and reads what has been held back for them.
    private mutating func begin(_ emit: (GoogleEarningsEntry) throws -> Void) throws {
        started = true
        if pending.starts(with: [0xFF, 0xFE]) || pending.starts(with: [0xFE, 0xFF]) {
            throw StoreReportError(file: file, line: 1, column: 1,
                                   reason: "UTF-16 text (byte-order mark \(pending[0] == 0xFF ? "FF FE" : "FE FF")); expected UTF-8")
        }
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
        let carried = pending
        pending = []
        try carried.withUnsafeBytes { try feed($0, emit) }
    }

    /// One record's bytes, with its newline when it has one.
    private mutating func record(_ bytes: UnsafeRawBufferPointer, _ emit: (GoogleEarningsEntry) throws -> Void) throws {
        let recordLine = line
        if layout != nil, let entry = try plainRow(bytes, line: recordLine) {
            if bytes.last == 0x0A { line += 1 }
            sawText = true
            rows += 1
            try emit(entry)
            return
        }
        var ascii = true
        var newlines = 0
        var blank = true
        for byte in bytes {
            if byte == 0x0A { newlines += 1 }
            if byte >= 0x80 || byte == 0 { ascii = false }
            if blank, byte != 0x0A, byte != 0x0D, byte != 0x20, byte != 0x09 { blank = false }
        }
        line += newlines
        if !ascii { try validate(bytes, line: recordLine) }
        if !blank { sawText = true }
        guard layout != nil else {
            if blankHeader == nil, blank {
                blankHeader = (Array(bytes), recordLine)
                return
            }
            if let blankHeader, !blank { try header(blankHeader.bytes, line: blankHeader.line) }
            if blankHeader == nil { try header(Array(bytes), line: recordLine) }
            return
        }
        try ordinaryRows(bytes, line: recordLine, emit)
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
    private func ordinaryRows(_ bytes: UnsafeRawBufferPointer, line: Int, _ emit: (GoogleEarningsEntry) throws -> Void) throws {
        guard let layout else { return }
        let records = try DelimitedReader(separator: UInt8(ascii: ","), quoting: true, firstLine: line)
            .records(Array(bytes)[...], file: file)
        for record in records {
            try emit(GoogleEarningsEntry(try GoogleEarningsParser.row(RowCells(record, layout, file: file))))
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

    /// The row read straight from its bytes, or nil when it is not plain (the ordinary reader then decides); throws
    /// only when the row is not UTF-8 text.
    private mutating func plainRow(_ raw: UnsafeRawBufferPointer, line: Int) throws -> GoogleEarningsEntry? {
        var end = raw.count
        if end > 0, raw[end - 1] == 0x0A { end -= 1 }
        if end > 0, raw[end - 1] == 0x0D { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        cells.count = 0
        var index = 0
        // Where the first byte of 0x80 or more (or a zero byte) is, if any: the row is checked as UTF-8 from there.
        var unusual = -1
        while true {
            if index < end, bytes[index] == 0x22 {
                // A quoted cell: closed by the next quote, which a separator or the end must follow.
                var close = index + 1
                while true {
                    close = Self.skipPlain(bytes, from: close, to: end, comma: false)
                    guard close < end else { return nil }
                    let byte = bytes[close]
                    if byte == 0x22 { break }
                    if byte == 0x0A || byte == 0x0D { return nil }
                    if unusual < 0, byte >= 0x80 || byte == 0 { unusual = close }
                    close += 1
                }
                cells.append((index + 1)..<close)
                index = close + 1
                if index == end { break }
                guard bytes[index] == 0x2C else { return nil }
                index += 1
                continue
            }
            let start = index
            while true {
                index = Self.skipPlain(bytes, from: index, to: end, comma: true)
                guard index < end else { break }
                let byte = bytes[index]
                if byte == 0x2C { break }
                if byte == 0x22 || byte == 0x0D { return nil }
                if unusual < 0, byte >= 0x80 || byte == 0 { unusual = index }
                index += 1
            }
            cells.append(start..<index)
            if index == end { break }
            index += 1
        }
        // Non-ASCII cells are checked in place, from the first unusual byte (all before it is ASCII); the copying
        // validation only places a defect.
        if unusual >= 0, !ReportText.isValid(UnsafeRawBufferPointer(rebasing: raw[unusual...])) { try validate(raw, line: line) }
        guard let layout, cells.count == layout.width else { return nil }
        let c = columns
        func cell(_ index: Int) -> Range<Int> { ByteCells.trimmed(bytes, cells[index]) }
        let order = cell(c.order), type = cell(c.type), refund = cell(c.refund), product = cell(c.product)
        let buyerCurrency = cell(c.buyerCurrency), merchantCurrency = cell(c.merchantCurrency)
        guard !order.isEmpty, !type.isEmpty, !product.isEmpty,
              let date = ByteCells.monthNameDayYear(bytes, cell(c.date)),
              let epoch = ByteCells.transactionTime(bytes, cell(c.time), on: date),
              ByteCells.isCurrency(bytes, buyerCurrency), ByteCells.isCurrency(bytes, merchantCurrency),
              let amount = ByteCells.micros(bytes, cell(c.amountBuyer)), ByteCells.micros(bytes, cell(c.amountMerchant)) != nil,
              ByteCells.decimal(bytes, cell(c.rate)) != nil, ByteCells.wholeNumber(bytes, cell(c.productType)) != nil else { return nil }
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
        return GoogleEarningsEntry(
            line: line, orderID: Self.interned(bytes, order, &lastOrder), transactionType: Self.transactionType(bytes, type),
            refundType: refundType, productID: Self.interned(bytes, product, &lastProduct),
            buyerCountry: Self.interned(bytes, cell(c.country), &lastCountry),
            buyerCurrency: Self.interned(bytes, buyerCurrency, &lastCurrency),
            amountBuyerMicros: amount, transactionEpochSeconds: epoch)
    }

    /// The first position from `index` (before `end`) of a byte a cell's reading must look at — a quote, a line
    /// break, a byte of 0x80 or more, a zero byte, and with `comma` a comma — or `end`: eight bytes at a time.
    @inline(__always)
    static func skipPlain(_ bytes: UnsafeRawBufferPointer, from index: Int, to end: Int, comma: Bool) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        // A byte's high bit is set where it equals `byte` (exact for the lowest such byte, which is all we use).
        @inline(__always) func equal(_ word: UInt64, _ byte: UInt64) -> UInt64 {
            let x = word ^ (ones &* byte)
            return (x &- ones) & ~x & high
        }
        var index = index
        while index + 8 <= end {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            var found = equal(word, 0x22) | equal(word, 0x0A) | equal(word, 0x0D) | equal(word, 0) | (word & high)
            if comma { found |= equal(word, 0x2C) }
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x0A || byte == 0x0D || byte == 0 || byte >= 0x80 || (comma && byte == 0x2C) { return index }
            index += 1
        }
        return end
    }

    static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The cell's text, sharing the previous row's string when the bytes repeat (an order's rows are adjacent, and
    /// carry one product, country and currency).
    static func interned(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ last: inout (bytes: [UInt8], text: String)) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        let same = last.bytes.count == slice.count && last.bytes.withUnsafeBytes { held in
            guard let a = held.baseAddress, let b = slice.baseAddress else { return true }
            return memcmp(a, b, slice.count) == 0
        }
        if same { return last.text }
        last = (Array(slice), String(decoding: slice, as: UTF8.self))
        return last.text
    }

    static func transactionType(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> GoogleTransactionType {
        switch range.count {
        case 6 where ByteCells.equals(bytes, range, "Charge"): return .charge
        case 10 where ByteCells.equals(bytes, range, "Google fee"): return .googleFee
        case 3 where ByteCells.equals(bytes, range, "Tax"): return .tax
        default: return GoogleTransactionType(raw: text(bytes, range))
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

/// The cells of one row as ranges of its bytes, kept in memory of their own that grows and is reused row after row
/// (an array's append checks its storage each time: 26 cells × 3M rows of checks).
final class CellRanges {
    private var base: UnsafeMutablePointer<Range<Int>>
    private var capacity: Int
    /// Cells of the current row.
    var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = UnsafeMutablePointer<Range<Int>>.allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Adds the next cell.
    func append(_ range: Range<Int>) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Range<Int>>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: range)
        count += 1
    }

    subscript(index: Int) -> Range<Int> {
        precondition(index < count, "cell \(index) of \(count)")
        return base[index]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a Google Play earnings CSV as a stream of byte chunks and emits one full row at a time without holding the
/// file: records are split where a newline falls outside quotes, and each is read by `GoogleEarningsParser`'s own
/// record and row readers, so a row is accepted or rejected exactly as the whole-file parser does, with the same
/// file, line, column and reason. The whole-file parser checks the encoding of the whole file first, then the
/// splitting of every record, then the rows' fields; so every defect is held until `finishRows`, which throws the
/// one the whole-file parser throws (see `StreamDefects`), and a damaged archive around the file is still reported first.
public struct GoogleEarningsScanner {
    /// The file name for errors (`archive.zip/member.csv`).
    public let file: String
    private var layout: HeaderLayout?
    /// Bytes of a record not yet ended by a newline (carried from one chunk to the next).
    private var pending: [UInt8] = []
    /// Whether `pending` holds an open quote.
    private var inQuote = false
    /// The line the next record starts on.
    private var line = 1
    private var started = false
    /// Rows emitted.
    public private(set) var rows = 0
    /// The reader of common records, once the header is known.
    private var fast: GoogleEarningsFastRow?
    /// Set while the rest of a record longer than the line limit goes by unkept: where its next byte is, and the
    /// start of a UTF-8 sequence a chunk ended in (its encoding is still checked).
    private var skipping: SkippedRecord?
    /// The defects met so far: the whole-file parser checks the encoding of the whole file first, then the splitting
    /// of every record (header and quoting), then the rows' fields; of two defects of one rank the earlier is reported.
    private var defects: StreamDefects

    /// A scanner of the file named `file`.
    public init(file: String) {
        self.file = file
        defects = StreamDefects(file: file)
    }

    /// Where the bytes fed so far end: the last line and the column after its last character (for a container
    /// that breaks off).
    public var position: (line: Int, column: Int) {
        if let skipping { return (skipping.line, skipping.column) }
        var lines = line, column = 1
        for byte in pending {
            if byte == 0x0A { lines += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (lines, column)
    }

    /// Reads the records completed by `chunk`; `emit` receives each row until the first defect, which is held and
    /// thrown by `finishRows`.
    public mutating func feedRows(_ chunk: UnsafeRawBufferPointer, _ emit: (GoogleEarningsRow) throws -> Void) throws {
        try feed(chunk) { try emit($0.row()) }
    }

    /// Reads the last record and throws the defect held, if any (see `finish`).
    public mutating func finishRows(_ emit: (GoogleEarningsRow) throws -> Void) throws {
        try finish { try emit($0.row()) }
    }

    /// Reads the records completed by `chunk`; `consume` receives each row's cells (lent) until the first defect,
    /// which is held and thrown by `finish`.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (GoogleEarningsCells) throws -> Void) throws {
        if defects.rank == .encoding { return }
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
            if skipping != nil {
                try skip(UnsafeRawBufferPointer(rebasing: chunk[start...newline]))
                if !inQuote, let skipped = skipping {
                    line = skipped.line
                    skipping = nil
                }
                start = newline + 1
                continue
            }
            if inQuote {
                pending.append(contentsOf: chunk[start...newline])
                try checkLength()
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
            if skipping != nil { return try skip(UnsafeRawBufferPointer(rebasing: rest)) }
            pending.append(contentsOf: rest)
            try checkLength()
        }
    }

    /// A record longer than the line limit is refused as the whole-file parser refuses it (the line, or a cell,
    /// too long) and the rest of it goes by unkept: memory stays bounded whatever the file holds.
    private mutating func checkLength() throws {
        guard pending.count > GoogleEarningsParser.limits.lineBytes + 2 else { return }
        do {
            _ = try GoogleEarningsParser.reader(firstLine: line).records(pending[...], file: file)
        } catch {
            try defects.refuse(error, .structure)
        }
        skipping = SkippedRecord(line: line, column: 1)
        let held = pending
        pending = []
        try held.withUnsafeBytes { try skip($0) }
    }

    /// Checks the encoding of `bytes` of the record being skipped and moves its position past them; `last`: the
    /// record ends here (a sequence it breaks off in is a defect).
    private mutating func skip(_ bytes: UnsafeRawBufferPointer, last: Bool = false) throws {
        guard var state = skipping else { return }
        try state.pass(bytes, last: last, file: file, defects: &defects)
        skipping = state
    }

    /// Reads the last record (a file need not end with a newline) and throws the defect the whole-file parser would
    /// report, if any (an empty file, no header, …).
    public mutating func finish(_ emit: (GoogleEarningsCells) throws -> Void) throws {
        if skipping != nil { try skip(UnsafeRawBufferPointer(start: nil, count: 0), last: true) }
        if !started {
            guard !pending.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
            try begin(emit)
        }
        if !pending.isEmpty, defects.rank != .encoding {
            let carried = pending
            pending = []
            try carried.withUnsafeBytes { try record($0, emit) }
        }
        let defects = defects
        try defects.finish(header: { try header($0, line: $1) }, hasHeader: { layout != nil })
    }

    /// Checks the first bytes (UTF-16, a UTF-8 byte-order mark) and reads what has been held back for them.
    private mutating func begin(_ emit: (GoogleEarningsCells) throws -> Void) throws {
        started = true
        let first = pending
        pending = []
        guard let carried = try defects.start(first) else { return }
        try carried.withUnsafeBytes { try feed($0, emit) }
    }

    /// One record's bytes, with its newline when it has one.
    private mutating func record(_ bytes: UnsafeRawBufferPointer, _ emit: (GoogleEarningsCells) throws -> Void) throws {
        let recordLine = line
        var newlines = 0
        if let base = bytes.baseAddress {
            var at = 0
            while at < bytes.count, let found = memchr(base + at, 0x0A, bytes.count - at) {
                newlines += 1
                at = base.distance(to: UnsafeRawPointer(found)) + 1
            }
        }
        let blank = !bytes.contains { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 && $0 != 0x09 }
        line += newlines
        if !ReportText.isValid(bytes) {
            do { try validate(bytes, line: recordLine) } catch { try defects.refuse(error, .encoding); return }
        }
        // After a defect of the encoding, the header or the quoting, only the encoding is still read.
        guard defects.keepsReading(blank: blank) else { return }
        guard layout != nil else {
            guard let first = defects.headerRecord(bytes, line: recordLine, blank: blank) else { return }
            do { try header(first.bytes, line: first.line) } catch { try defects.refuse(error, .structure) }
            return
        }
        try readRows(bytes, line: recordLine, emit)
    }

    /// The header: columns by name as the whole-file parser finds them.
    private mutating func header(_ bytes: [UInt8], line: Int) throws {
        let records = try GoogleEarningsParser.reader(firstLine: line).records(bytes[...], file: file)
        guard let record = records.first else { throw StoreReportError(file: file, line: line, column: 1, reason: "no header row") }
        let layout = try HeaderLayout(header: record, specs: GoogleEarningsParser.columns, file: file)
        self.layout = layout
        fast = GoogleEarningsFastRow(layout: layout)
        defects.blankHeader = nil
    }

    /// The record read by the whole-file parser's readers (exact acceptance and messages).
    private mutating func readRows(_ bytes: UnsafeRawBufferPointer, line: Int, _ emit: (GoogleEarningsCells) throws -> Void) throws {
        guard let layout else { return }
        if defects.rank == nil, bytes.count <= GoogleEarningsParser.limits.cellBytes, fast != nil {
            // Read in place (the reader is neither copied nor its buffers shared); the rows it hands on are counted
            // apart, as `self` is being modified meanwhile.
            var emitted = 0
            defer { rows += emitted }
            if try fast?.read(bytes, line: line, { cells in
                emitted += 1
                try emit(cells)
            }) == true { return }
        }
        let records: [DelimitedRecord]
        do {
            records = try GoogleEarningsParser.reader(firstLine: line).records(Array(bytes)[...], file: file)
        } catch {
            return try defects.refuse(error, .structure)
        }
        // After a defect of a row's fields, only the encoding and the quoting are still read.
        guard defects.rank == nil else { return }
        for record in records {
            let row: GoogleEarningsRow
            do { row = try GoogleEarningsParser.row(RowCells(record, layout, file: file)) } catch { return try defects.refuse(error, .field) }
            rows += 1
            try GoogleEarningsCells.lending(row, emit)
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

    /// The `Transaction Type` at `range` of `bytes`, read without a string; nil for a value not among
    /// `GoogleTransactionType`'s (the reconciliation reads staged rows with it).
    public static func transactionType(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> GoogleTransactionType? {
        guard let base = bytes.baseAddress, range.upperBound <= bytes.count else { return nil }
        func named(_ name: StaticString) -> Bool {
            range.count == name.utf8CodeUnitCount && memcmp(base + range.lowerBound, name.utf8Start, range.count) == 0
        }
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
}

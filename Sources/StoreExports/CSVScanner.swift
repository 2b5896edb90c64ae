#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a comma-separated report with quoted cells (Google Play's estimated sales) as a stream of byte chunks and
/// hands on one row at a time without holding the file: a record ends at a newline outside quotes, and each record is
/// split by `DelimitedReader` and read by the report's row reader, so a row is accepted or rejected with the same file,
/// line, column and reason as the whole-file parser gives. A record is at most `limits.lineBytes`; a longer one is
/// refused at its position and the rest of it goes by unkept (only its encoding is still checked). The whole-file
/// parser checks the encoding of the whole file first, then the splitting of every record (header, quoting, limits),
/// then the rows' fields; so every defect is held until `finish`, which throws the one the whole-file parser throws
/// (see `StreamDefects`).
public struct CSVScanner<Row> {
    /// The file name for errors (`archive.zip/member.csv`).
    public let file: String
    private let specs: [ColumnSpec]
    private let limits: DelimitedLimits
    private let readRow: (RowCells) throws -> Row
    private var layout: HeaderLayout?
    /// Bytes of a record not yet ended by a newline outside quotes (carried from one chunk to the next).
    private var pending: [UInt8] = []
    /// Whether the record being read has an open quote.
    private var inQuote = false
    /// The line the next record starts on.
    private var line = 1
    private var started = false
    /// Set while the rest of a record longer than the line limit goes by unkept: where its next byte is, and the
    /// start of a UTF-8 sequence a chunk ended in (its encoding is still checked).
    private var skipping: SkippedRecord?
    private var defects: StreamDefects
    /// Rows handed on.
    public private(set) var rows = 0

    init(file: String, specs: [ColumnSpec], limits: DelimitedLimits, row: @escaping (RowCells) throws -> Row) {
        self.file = file
        self.specs = specs
        self.limits = limits
        self.readRow = row
        defects = StreamDefects(file: file)
    }

    /// The splitter of records starting on `line`.
    private func reader(_ line: Int) -> DelimitedReader {
        DelimitedReader(separator: UInt8(ascii: ","), quoting: true, firstLine: line, limits: limits)
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

    /// Bytes held between chunks (a record not yet ended): at most one line's limit and a chunk's tail.
    var heldBytes: Int { pending.count + (skipping?.carry.count ?? 0) }

    /// Reads the records completed by `chunk`; `emit` receives each row until the first defect, which is held and
    /// thrown by `finish`.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (Row) throws -> Void) throws {
        if defects.rank == .encoding { return }
        if !started {
            pending.append(contentsOf: chunk)
            guard pending.count >= 3 else { return }
            try begin(emit)
            return
        }
        guard let base = chunk.baseAddress else { return }
        var start = 0
        let count = chunk.count
        while start < count {
            // The next newline; an odd number of quotes before it toggles the state.
            guard let found = memchr(base + start, 0x0A, count - start) else { break }
            let newline = base.distance(to: UnsafeRawPointer(found))
            var quotes = 0
            var scan = start
            while scan < newline, let quote = memchr(base + scan, 0x22, newline - scan) {
                quotes += 1
                scan = base.distance(to: UnsafeRawPointer(quote)) + 1
            }
            if quotes % 2 == 1 { inQuote.toggle() }
            let through = UnsafeRawBufferPointer(rebasing: chunk[start...newline])
            start = newline + 1
            if skipping != nil {
                try skip(through)
                if !inQuote, let skipped = skipping {
                    line = skipped.line
                    skipping = nil
                }
            } else if inQuote {
                pending.append(contentsOf: through)
                try checkLength()
            } else if pending.isEmpty {
                try record(through, emit)
            } else {
                pending.append(contentsOf: through)
                let carried = pending
                pending.removeAll(keepingCapacity: true)
                try carried.withUnsafeBytes { try record($0, emit) }
            }
            if defects.rank == .encoding { return }
        }
        if start < count {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
            if rest.reduce(0, { $0 + ($1 == 0x22 ? 1 : 0) }) % 2 == 1 { inQuote.toggle() }
            if skipping != nil { return try skip(rest) }
            pending.append(contentsOf: rest)
            try checkLength()
        }
    }

    /// Reads the last record (a file need not end with a newline) and throws the defect the whole-file parser
    /// reports, if any (an empty file, no header, …).
    public mutating func finish(_ emit: (Row) throws -> Void) throws {
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
    private mutating func begin(_ emit: (Row) throws -> Void) throws {
        started = true
        let first = pending
        pending = []
        guard let carried = try defects.start(first) else { return }
        try carried.withUnsafeBytes { try feed($0, emit) }
    }

    /// A record longer than the line limit is refused as the splitter refuses it (the line, or a cell, too long) and
    /// the rest of it goes by unkept: memory stays bounded whatever the file holds.
    private mutating func checkLength() throws {
        guard pending.count > limits.lineBytes + 2 else { return }
        if defects.rank != .encoding {
            if pending.contains(where: { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 && $0 != 0x09 }) { defects.sawText = true }
            do {
                _ = try reader(line).records(pending[...], file: file)
            } catch {
                try defects.refuse(error, .structure)
            }
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

    /// One record's bytes, with its newline when it has one.
    private mutating func record(_ bytes: UnsafeRawBufferPointer, _ emit: (Row) throws -> Void) throws {
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
        // After a defect of the encoding, the header or the splitting, only the encoding is still read.
        guard defects.keepsReading(blank: blank) else { return }
        guard layout != nil else {
            guard let first = defects.headerRecord(bytes, line: recordLine, blank: blank) else { return }
            do { try header(first.bytes, line: first.line) } catch { try defects.refuse(error, .structure) }
            return
        }
        try readRows(bytes, line: recordLine, emit)
    }

    /// The header: columns by name.
    private mutating func header(_ bytes: [UInt8], line: Int) throws {
        let records = try reader(line).records(bytes[...], file: file)
        guard let record = records.first else { throw StoreReportError(file: file, line: line, column: 1, reason: "no header row") }
        layout = try HeaderLayout(header: record, specs: specs, file: file)
        defects.blankHeader = nil
    }

    /// The record split and read by the report's row reader.
    private mutating func readRows(_ bytes: UnsafeRawBufferPointer, line: Int, _ emit: (Row) throws -> Void) throws {
        guard let layout else { return }
        let records: [DelimitedRecord]
        do {
            records = try reader(line).records(Array(bytes)[...], file: file)
        } catch {
            return try defects.refuse(error, .structure)
        }
        // After a defect of a row's fields, only the encoding and the splitting are still read.
        guard defects.rank == nil else { return }
        for record in records {
            let row: Row
            do { row = try readRow(try RowCells(record, layout, file: file)) } catch { return try defects.refuse(error, .field) }
            rows += 1
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
}

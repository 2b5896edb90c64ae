#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one of Apple's tab-separated Sales and Trends reports (Subscriber, Subscription, Subscription Event, Summary
/// Sales) as a stream of byte chunks and hands on one row at a time, holding one line at most (a line is at most
/// `DelimitedLimits.apple.lineBytes`; a longer one is refused and its bytes are checked and dropped as they come).
/// Each line is split by `DelimitedReader` and read by the report's row reader, so a row is accepted or rejected with
/// the same file, line, column and reason as reading the whole file: the encoding of the whole file is checked first,
/// then the splitting (header, limits), then blank lines, then the rows' fields; every defect is held until `finish`,
/// which throws the one a whole-file read reports (the earliest of the first rank met). A report with a part after its
/// rows (the financial report's totals, `AppleFinancialScanner`) hands every record from the one that ends the rows to
/// its tail reader instead.
public struct AppleTabScanner<Row> {
    /// How a report treats a line of nothing but spaces inside its data.
    enum BlankLines {
        /// Refused where it stands, like a bad row (Subscriber).
        case refusedInOrder
        /// Refused before any defect of the rows' fields (Subscription, Subscription Event).
        case refusedFirst
        /// Read as a row (Summary Sales: its width is then wrong).
        case readAsRow
    }

    /// The file name for errors (`archive.gz`, `archive.zip/member.txt`).
    public let file: String
    private let specs: [ColumnSpec]
    private let blankLines: BlankLines
    private let readRow: (RowCells) throws -> Row
    /// For a report with a part after its rows (the financial report's totals): which record ends the rows, and the
    /// reader of every record from it on (its first defect is held like a row's).
    private let tail: (ends: (DelimitedRecord) -> Bool, read: (DelimitedRecord) throws -> Void)?
    private var inTail = false
    /// The line of the last record read after the header (the header's own while there is none).
    private(set) var lastRecordLine = 1
    private let limits = DelimitedLimits.apple
    private var layout: HeaderLayout?
    /// Bytes of the line not yet ended by a newline (carried from one chunk to the next).
    private var pending: [UInt8] = []
    /// The line the next record starts on.
    private var line = 1
    private var started = false
    /// Characters of an over-long line already checked and dropped (nil when the line is not over-long).
    private var dropped: Int?
    private var defects: StreamDefects
    /// Rows handed on.
    public private(set) var rows = 0

    init(file: String, specs: [ColumnSpec], blankLines: BlankLines, row: @escaping (RowCells) throws -> Row,
         tail: (ends: (DelimitedRecord) -> Bool, read: (DelimitedRecord) throws -> Void)? = nil) {
        self.file = file
        self.specs = specs
        self.blankLines = blankLines
        self.readRow = row
        self.tail = tail
        defects = StreamDefects(file: file)
    }

    /// Where the bytes fed so far end: the last line and the column after its last character (for a container
    /// that breaks off).
    public var position: (line: Int, column: Int) {
        (line, (dropped ?? 0) + pending.reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) })
    }

    /// Bytes held between chunks (the start of a line not yet ended): at most one line's limit and a character.
    var heldBytes: Int { pending.count }

    /// Reads the lines completed by `chunk`; `emit` receives each row until the first defect, which is held and
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
        while start < count, let found = memchr(base + start, 0x0A, count - start) {
            let newline = base.distance(to: UnsafeRawPointer(found))
            if pending.isEmpty, dropped == nil {
                try record(UnsafeRawBufferPointer(rebasing: chunk[start...newline]), emit)
            } else {
                pending.append(contentsOf: chunk[start...newline])
                let carried = pending
                pending.removeAll(keepingCapacity: true)
                try carried.withUnsafeBytes { try record($0, emit) }
            }
            start = newline + 1
            if defects.rank == .encoding { return }
        }
        if start < count {
            pending.append(contentsOf: chunk[start...])
            if pending.count > limits.lineBytes + 2 { try overlong() }
        }
    }

    /// Reads the last line (a file need not end with a newline) and throws the defect a whole-file read reports, if
    /// any (an empty file, no header, …).
    public mutating func finish(_ emit: (Row) throws -> Void) throws {
        if !started {
            guard !pending.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
            try begin(emit)
        }
        if !pending.isEmpty || dropped != nil, defects.rank != .encoding {
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

    /// A line past the limit with no newline yet: refused (as the splitter refuses it) on first sight, then its
    /// bytes are checked for their encoding and dropped, all but a last character that may be incomplete.
    private mutating func overlong() throws {
        let cut = pending.lastIndex { $0 & 0xC0 != 0x80 } ?? pending.count
        let checked = Array(pending[..<cut])
        try checkEncoding(checked)
        if defects.rank == .encoding { return }
        if dropped == nil {
            defects.sawText = true
            do {
                _ = try DelimitedReader(separator: UInt8(ascii: "\t"), quoting: false, firstLine: line, limits: limits)
                    .records(pending[...], file: file)
            } catch {
                try defects.refuse(error, .structure)
            }
        }
        dropped = (dropped ?? 0) + checked.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        pending.removeFirst(cut)
    }

    /// Throws at the first byte of `bytes` (the part of the current line from column `dropped + 1`) that is not UTF-8
    /// text, at its position in the file; held as an encoding defect.
    private mutating func checkEncoding(_ bytes: [UInt8]) throws {
        let plain = bytes.withUnsafeBytes { raw in raw.allSatisfy { $0 != 0 && $0 < 0x80 } }
        guard !plain else { return }
        do {
            try ReportText.validate(bytes[...], file: file)
        } catch let error as StoreReportError {
            let column = error.line == 1 ? error.column + (dropped ?? 0) : error.column
            try defects.refuse(StoreReportError(file: file, line: line + error.line - 1, column: column, reason: error.reason), .encoding)
        }
    }

    /// One line's bytes, with its newline when it has one (the end of an over-long line: only checked).
    private mutating func record(_ bytes: UnsafeRawBufferPointer, _ emit: (Row) throws -> Void) throws {
        let recordLine = line
        var blank = true
        for byte in bytes where byte != 0x0A && byte != 0x0D && byte != 0x20 && byte != 0x09 {
            blank = false
            break
        }
        if !ReportText.isValid(bytes) { try checkEncoding(Array(bytes)) }
        if bytes.last == 0x0A { line += 1 }
        if dropped != nil {
            dropped = nil
            return
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

    /// The header's columns, once read.
    var headerLayout: HeaderLayout? { layout }

    /// The header: columns by name.
    private mutating func header(_ bytes: [UInt8], line: Int) throws {
        let records = try DelimitedReader(separator: UInt8(ascii: "\t"), quoting: false, firstLine: line, limits: limits)
            .records(bytes[...], file: file)
        guard let record = records.first else { throw StoreReportError(file: file, line: line, column: 1, reason: "no header row") }
        lastRecordLine = record.line
        layout = try HeaderLayout(header: record, specs: specs, file: file)
        defects.blankHeader = nil
    }

    /// The line split and read by the report's row reader.
    private mutating func readRows(_ bytes: UnsafeRawBufferPointer, line: Int, _ emit: (Row) throws -> Void) throws {
        guard let layout else { return }
        let records: [DelimitedRecord]
        do {
            records = try DelimitedReader(separator: UInt8(ascii: "\t"), quoting: false, firstLine: line, limits: limits)
                .records(Array(bytes)[...], file: file)
        } catch {
            return try defects.refuse(error, .structure)
        }
        for record in records {
            lastRecordLine = record.line
            if let tail, inTail || tail.ends(record) {
                inTail = true
                guard defects.rank == nil else { return }
                do { try tail.read(record) } catch { return try defects.refuse(error, .field) }
                continue
            }
            if blankLines != .readAsRow, record.isBlank, record.fields.count == 1 {
                let blank = StoreReportError(file: file, line: record.line, column: 1, reason: "blank line inside the report")
                try defects.refuse(blank, blankLines == .refusedFirst ? .blank : .field)
                return
            }
            // After a defect of a row, only the encoding, the splitting and (where they rank first) blank lines are read.
            guard defects.rank == nil else { return }
            let row: Row
            do { row = try readRow(try RowCells(record, layout, file: file)) } catch { return try defects.refuse(error, .field) }
            rows += 1
            try emit(row)
        }
    }
}

extension AppleTabScanner {
    /// Every row of `bytes` (a whole file read into memory), or the defect a whole-file read reports.
    func all(_ bytes: [UInt8]) throws -> [Row] {
        var scanner = self
        var rows: [Row] = []
        try bytes.withUnsafeBytes { try scanner.feed($0) { rows.append($0) } }
        try scanner.finish { rows.append($0) }
        return rows
    }
}

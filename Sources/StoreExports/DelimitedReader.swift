/// The longest cell and line a reader accepts, in bytes; a longer one rejects the file at its position before the
/// rest of it is split (docs/STORE_REPORTS.md, "Limits").
struct DelimitedLimits: Sendable {
    /// The longest cell (unquoted content).
    let cellBytes: Int
    /// The longest line (a record: its cells, separators and quotes; a quoted newline does not end it).
    let lineBytes: Int

    /// No limit.
    static let none = DelimitedLimits(cellBytes: .max, lineBytes: .max)
    /// Apple's report files: a cell of 4 KiB, a line of 64 KiB (their longest real cells, titles and offer names, are
    /// a few hundred bytes; their widest lines under 2 KiB).
    static let apple = DelimitedLimits(cellBytes: 4_096, lineBytes: 65_536)
}

/// Splits UTF-8 text into records: LF or CRLF line ends, an optional last line without a newline,
/// and for CSV double-quoted fields holding separators, quotes (`""`) and newlines.
struct DelimitedReader {
    /// The field separator (`,` or TAB).
    let separator: UInt8
    /// Whether `"` starts a quoted field (CSV) or is an ordinary character (Apple's TSV files).
    let quoting: Bool
    /// Accept text after a closing quote inside the same field (the payments CSV's `"234.58" EUR`).
    var lenientQuotes = false
    /// The line number of the first byte (a streaming reader splits one record at a time).
    var firstLine = 1
    /// The longest cell and line accepted.
    var limits = DelimitedLimits.none

    /// All records of `body`; throws at an unterminated quote or stray quote with its line and column.
    /// `firstRecord` sees the first record before the rest is split, so a wrong header is reported
    /// before any problem in the rows.
    func records(_ body: ArraySlice<UInt8>, file: String,
                 firstRecord: (DelimitedRecord) throws -> Void = { _ in }) throws -> [DelimitedRecord] {
        var records: [DelimitedRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = firstLine, recordLine = firstLine
        var index = body.startIndex
        var recordStart = index
        let end = body.endIndex
        let quote = UInt8(ascii: "\""), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        func finishField() { fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true) }
        let limited = limits.cellBytes != .max || limits.lineBytes != .max
        /// Throws when the cell or the line being read has grown past `limits`.
        func checkLimits() throws {
            guard limited else { return }
            if field.count > limits.cellBytes {
                throw StoreReportError(file: file, line: recordLine, column: fields.count + 1,
                                       reason: "cell longer than \(limits.cellBytes) bytes (the limit for this report)")
            }
            if index - recordStart > limits.lineBytes {
                throw StoreReportError(file: file, line: recordLine, column: fields.count + 1,
                                       reason: "line longer than \(limits.lineBytes) bytes (the limit for this report)")
            }
        }
        func finishRecord() throws {
            finishField()
            records.append(DelimitedRecord(line: recordLine, fields: fields))
            fields.removeAll(keepingCapacity: true)
            if records.count == 1 { try firstRecord(records[0]) }
        }
        while index < end {
            let byte = body[index]
            if quoting, byte == quote, field.isEmpty {
                let openedLine = line, openedColumn = fields.count + 1
                index += 1
                var closed = false
                while index < end {
                    let inner = body[index]
                    if inner == quote {
                        if index + 1 < end, body[index + 1] == quote { field.append(quote); index += 2; continue }
                        index += 1
                        closed = true
                        break
                    }
                    if inner == lf { line += 1 }
                    field.append(inner)
                    index += 1
                    try checkLimits()
                }
                guard closed else {
                    throw StoreReportError(file: file, line: openedLine, column: openedColumn, reason: "quoted field never closed")
                }
                if index < end, body[index] != separator, body[index] != lf, !(body[index] == cr && index + 1 < end && body[index + 1] == lf) {
                    guard lenientQuotes else {
                        if openedLine != line {
                            throw StoreReportError(file: file, line: openedLine, column: openedColumn,
                                                   reason: "quoted field never closed (the next quote, on line \(line), is followed by text)")
                        }
                        throw StoreReportError(file: file, line: line, column: fields.count + 1, reason: "text after a closing quote")
                    }
                    while index < end, body[index] != separator, body[index] != lf, body[index] != cr {
                        field.append(body[index])
                        index += 1
                        try checkLimits()
                    }
                }
                continue
            }
            if byte == separator {
                finishField()
            } else if byte == lf || (byte == cr && index + 1 < end && body[index + 1] == lf) {
                if byte == cr { index += 1 }
                try finishRecord()
                line += 1
                recordLine = line
                recordStart = index + 1
            } else if quoting, byte == quote, !lenientQuotes {
                throw StoreReportError(file: file, line: line, column: fields.count + 1, reason: "quote inside an unquoted field")
            } else {
                field.append(byte)
            }
            index += 1
            try checkLimits()
        }
        if !field.isEmpty || !fields.isEmpty { try finishRecord() }
        return records
    }
}

/// A record longer than the line limit that a stream scanner lets go by unkept (`CSVScanner`,
/// `GoogleEarningsScanner`): its bytes are only checked for encoding and counted, so the position of what follows
/// stays exact and memory stays bounded.
struct SkippedRecord {
    /// Where the next byte of the record stands.
    var line: Int
    var column: Int
    /// The start of a UTF-8 sequence a chunk broke off in, held for the next chunk.
    var carry: [UInt8] = []

    /// Checks the encoding of `bytes` of the record and moves the position past them; `last`: the record ends here
    /// (a sequence it breaks off in is a defect). An encoding defect is handed to `defects` at its position in the file.
    mutating func pass(_ bytes: UnsafeRawBufferPointer, last: Bool, file: String, defects: inout StreamDefects) throws {
        var text = carry
        text.append(contentsOf: bytes)
        var cut = text.count
        if !last, let lead = text.indices.reversed().prefix(3).first(where: { text[$0] & 0xC0 != 0x80 }) {
            let length = text[lead] >= 0xF0 ? 4 : text[lead] >= 0xE0 ? 3 : text[lead] >= 0xC0 ? 2 : 1
            if lead + length > text.count { cut = lead }
        }
        if defects.rank != .encoding {
            do {
                try ReportText.validate(text[..<cut], file: file)
            } catch let error as StoreReportError {
                try defects.refuse(StoreReportError(file: file, line: line + error.line - 1,
                                                    column: error.line == 1 ? column + error.column - 1 : error.column,
                                                    reason: error.reason), .encoding)
            }
        }
        for byte in text[..<cut] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        carry = Array(text[cut...])
    }
}

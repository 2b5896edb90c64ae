/// The checks every report file gets before it is split into rows: not empty, not UTF-16, valid
/// UTF-8 without NUL bytes; a UTF-8 byte-order mark is dropped.
enum ReportText {
    /// The file's bytes without a UTF-8 BOM, or the reason it is not UTF-8 text.
    static func utf8Body(_ bytes: [UInt8], file: String) throws -> ArraySlice<UInt8> {
        guard !bytes.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "UTF-16 text (byte-order mark \(bytes[0] == 0xFF ? "FF FE" : "FE FF")); expected UTF-8")
        }
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = bytes.dropFirst(3) }
        try validate(body, file: file)
        guard body.contains(where: { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 && $0 != 0x09 }) else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file (no text)")
        }
        return body
    }

    /// Throws at the first byte that is not well-formed UTF-8 or is NUL, naming its line and character column.
    static func validate(_ body: ArraySlice<UInt8>, file: String) throws {
        var line = 1, column = 1
        var index = body.startIndex
        while index < body.endIndex {
            let lead = body[index]
            let length: Int
            switch lead {
            case 0x00:
                throw StoreReportError(file: file, line: line, column: column, reason: "NUL byte (UTF-16 or binary data); expected UTF-8 text")
            case 0x01...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default:
                throw StoreReportError(file: file, line: line, column: column, reason: "invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))")
            }
            guard index + length <= body.endIndex, body[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }),
                  validSecondByte(lead, length > 1 ? body[index + 1] : 0) else {
                throw StoreReportError(file: file, line: line, column: column, reason: "invalid or truncated UTF-8 sequence")
            }
            if lead == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
    }

    /// Whether `bytes` is UTF-8 text by the rules of `validate` (no NUL, no invalid or truncated sequence), read
    /// in place: the scanner's check of a row with non-ASCII cells, `validate` then only to place a defect.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes (none zero, none of 0x80 or more) at a time.
            if index + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let high: UInt64 = 0x8080_8080_8080_8080
                if word & high == 0, (word &- 0x0101_0101_0101_0101) & ~word & high == 0 {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x01...0x7F:
                index += 1
                continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return false
            }
            guard index + length <= count, validSecondByte(lead, bytes[index + 1]) else { return false }
            for next in (index + 1)..<(index + length) where bytes[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// Rejects overlong forms, surrogates and code points above U+10FFFF.
    private static func validSecondByte(_ lead: UInt8, _ second: UInt8) -> Bool {
        switch lead {
        case 0xE0: return second >= 0xA0
        case 0xED: return second <= 0x9F
        case 0xF0: return second >= 0x90
        case 0xF4: return second <= 0x8F
        default: return true
        }
    }
}

/// How `GoogleEarningsScanner` finds the cells of a plain row: one pass over the row's bytes, eight at a time where
/// nothing needs a look, the cells' ranges kept in memory of their own.
extension GoogleEarningsScanner {
    /// Splits the plain row at `bytes[start...]` into `width` cells at `cells`: unquoted cells, or quoted ones
    /// without quotes or line breaks inside, separated by commas and ended by a line end (LF or CRLF) or, without
    /// `needsNewline`, by the bytes' end. Returns the offset after the row, or nil when the row is not plain, has
    /// another number of cells, or does not end as it must. `unusual` becomes the offset of the first byte of 0x80
    /// or more, or zero, if there is one.
    @inline(__always)
    static func split(_ bytes: UnsafeRawBufferPointer, from start: Int, needsNewline: Bool, width: Int,
                      into cells: UnsafeMutablePointer<Range<Int>>, unusual: inout Int) -> Int? {
        let limit = bytes.count
        var index = start, count = 0
        while count < width {
            let cellStart: Int, cellEnd: Int
            if index < limit, bytes[index] == 0x22 {
                // A quoted cell: closed by the next quote, which a separator or the line's end must follow.
                var close = index + 1
                while true {
                    close = skipPlain(bytes, from: close, to: limit, comma: false)
                    guard close < limit else { return nil }
                    let byte = bytes[close]
                    if byte == 0x22 { break }
                    if byte == 0x0A || byte == 0x0D { return nil }
                    if unusual < 0 { unusual = close }
                    close += 1
                }
                cellStart = index + 1
                cellEnd = close
                index = close + 1
            } else {
                cellStart = index
                while true {
                    index = skipPlain(bytes, from: index, to: limit, comma: true)
                    guard index < limit else { break }
                    let byte = bytes[index]
                    if byte == 0x2C || byte == 0x0A || byte == 0x0D { break }
                    if byte == 0x22 { return nil }
                    if unusual < 0 { unusual = index }
                    index += 1
                }
                cellEnd = index
            }
            cells[count] = cellStart..<cellEnd
            count += 1
            guard index < limit else { return !needsNewline && count == width ? limit : nil }
            switch bytes[index] {
            case 0x2C:
                index += 1
            case 0x0A:
                return count == width ? index + 1 : nil
            case 0x0D:
                if index + 1 == limit { return !needsNewline && count == width ? limit : nil }
                return bytes[index + 1] == 0x0A && count == width ? index + 2 : nil
            default:
                return nil
            }
        }
        // A comma after the last cell the header has.
        return nil
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
}

/// The cells of one row as ranges of its bytes, in memory of their own that grows to the header's width and is
/// reused row after row (an array's append checks its storage each time: 26 cells × 3M rows of checks).
final class CellRanges {
    private var base: UnsafeMutablePointer<Range<Int>>
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = UnsafeMutablePointer<Range<Int>>.allocate(capacity: capacity)
        base.initialize(repeating: 0..<0, count: capacity)
    }

    deinit { base.deallocate() }

    /// Room for `width` cells.
    func prepare(_ width: Int) -> UnsafeMutablePointer<Range<Int>> {
        if width > capacity {
            base.deallocate()
            base = UnsafeMutablePointer<Range<Int>>.allocate(capacity: width)
            base.initialize(repeating: 0..<0, count: width)
            capacity = width
        }
        return base
    }
}

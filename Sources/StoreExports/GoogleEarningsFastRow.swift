#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an earnings record the common way, in place: quotes only around whole cells, as many cells as the header, no
/// cell padded with blanks, every field in its usual spelling. It accepts only what `GoogleEarningsParser.row` accepts and
/// reads it to the same values (the date, time and rate cells by the very same readers, remembered while a row
/// repeats them, as an order's rows do); anything else it declines, and the scanner reads that record field by field
/// (which then finds the defect, with its message). The scanner's speed: no `String` and no allocation per row.
struct GoogleEarningsFastRow {
    /// The record's width.
    private let width: Int
    /// Each column's field index, `width` when the file lacks it (`fields` holds one empty range past the record's).
    private let slots: [Int]
    /// The fields of `GoogleEarningsCells.Text`'s texts and of the columns a row must not leave empty, as slots.
    private let textSlots: [Int]
    private let requiredSlots: [Int]
    private var fields: [Range<Int>]
    private var texts: [Range<Int>]
    private var date = CellMemo<CalendarDate?>(nil)
    private var time = CellMemo<GoogleTransactionTime?>(nil)
    private var rate = CellMemo<ExactDecimal?>(nil)
    private var zone = CellMemo<String>("")
    /// The dates read so far by their cell's bytes (a month's file has a few dozen); at most `datesKept`.
    private var dates: [DateKey: CalendarDate?] = [:]
    private static let datesKept = 4_096

    /// A date cell's bytes (at most 16) as a key.
    private struct DateKey: Hashable {
        var low: UInt64 = 0, high: UInt64 = 0, count = 0

        init?(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
            guard range.count <= 16 else { return nil }
            count = range.count
            for (offset, index) in range.enumerated() {
                let byte = UInt64(bytes[index])
                if offset < 8 { low |= byte << (8 * offset) } else { high |= byte << (8 * (offset - 8)) }
            }
        }
    }

    /// The columns in `GoogleEarningsParser.columns` order.
    private enum Column: Int {
        case description, transactionDate, transactionTime, taxType, transactionType, refundType, productTitle, productID
        case productType, skuID, hardware, buyerCountry, buyerState, buyerPostalCode, buyerCurrency, amountBuyer, rate
        case merchantCurrency, amountMerchant, basePlanID, offerID, groupID, firstUSD1MEligible, serviceFeePercent
        case feeDescription, promotionID, salesChannel
    }

    /// Each text of `GoogleEarningsCells.Text`, as a column.
    private static let textColumns: [Column] = [
        .description, .taxType, .transactionType, .productTitle, .productID, .skuID, .hardware, .buyerCountry, .buyerState,
        .buyerPostalCode, .buyerCurrency, .merchantCurrency, .basePlanID, .offerID, .groupID, .firstUSD1MEligible,
        .serviceFeePercent, .feeDescription, .promotionID, .salesChannel,
    ]

    /// The columns a row of the common shape never leaves empty.
    private static let requiredColumns: [Column] = [.description, .transactionDate, .transactionTime, .transactionType, .productID, .productType]

    /// A reader of the records of a file with `layout`.
    init(layout: HeaderLayout) {
        width = layout.width
        let slots = GoogleEarningsParser.columns.map { layout.positions[$0.name] ?? layout.width }
        self.slots = slots
        textSlots = Self.textColumns.map { slots[$0.rawValue] }
        requiredSlots = Self.requiredColumns.map { slots[$0.rawValue] }
        fields = Array(repeating: 0..<0, count: layout.width + 1)
        texts = Array(repeating: 0..<0, count: GoogleEarningsCells.Text.allCases.count)
    }

    /// Reads `record` (its bytes with the newline) of `line` and hands its cells to `consume`; false, having read
    /// nothing, when the record is not of the common shape.
    mutating func read(_ record: UnsafeRawBufferPointer, line: Int, _ consume: (GoogleEarningsCells) throws -> Void) rethrows -> Bool {
        guard let base = record.baseAddress else { return false }
        var end = record.count
        if end > 0, record[end - 1] == 0x0A {
            end -= 1
            if end > 0, record[end - 1] == 0x0D { end -= 1 }
        }
        guard end > 0 else { return false }
        // The fields, split at commas; a quoted field (the date, a title with a comma) ends at the next quote, which
        // must close it (a doubled quote or text after the quote is left to the field-by-field reader). A cell that
        // begins or ends with a blank is left to it too.
        let width = self.width
        let split = fields.withUnsafeMutableBufferPointer { fields -> Bool in
            func padded(_ range: Range<Int>) -> Bool {
                guard !range.isEmpty else { return false }
                let first = record[range.lowerBound], last = record[range.upperBound - 1]
                return first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
            }
            var start = 0
            var count = 0
            while count < width {
                if start < end, record[start] == 0x22 {
                    guard let found = memchr(base + start + 1, 0x22, end - start - 1) else { return false }
                    let close = base.distance(to: UnsafeRawPointer(found))
                    let range = (start + 1)..<close
                    if padded(range) { return false }
                    fields[count] = range
                    count += 1
                    start = close + 2
                    if close + 1 == end { break }
                    guard record[close + 1] == 0x2C else { return false }
                    continue
                }
                let comma = Self.commaOrQuote(base, from: start, to: end)
                guard comma == end || record[comma] == 0x2C else { return false }
                let range = start..<comma
                if padded(range) { return false }
                fields[count] = range
                count += 1
                start = comma + 1
                if comma == end { break }
            }
            return count == width && start > end
        }
        guard split else { return false }
        func cell(_ column: Column) -> Range<Int> { fields[slots[column.rawValue]] }
        for slot in requiredSlots where fields[slot].isEmpty { return false }
        // The date, the time in its zone and the rate, by the field-by-field reader's own readers.
        let dateCell = cell(.transactionDate), timeCell = cell(.transactionTime), rateCell = cell(.rate)
        if !date.holds(record, dateCell) {
            let key = DateKey(record, dateCell)
            let day: CalendarDate?
            if let key, let known = dates[key] {
                day = known
            } else {
                day = CalendarDateFormat.monthNameDayYear.parse(Self.substring(record, dateCell))
                if let key, dates.count < Self.datesKept { dates[key] = day }
            }
            date.remember(record, dateCell, as: day)
        }
        if !time.holds(record, timeCell) {
            let clock = clock(record, timeCell) ?? GoogleTransactionTime(String(Self.substring(record, timeCell)))
            time.remember(record, timeCell, as: clock)
        }
        if !rate.holds(record, rateCell) {
            // An unreadable rate is nil here: the row then takes the whole-row reader, which names the defect.
            var parsed: ExactDecimal?
            if !rateCell.isEmpty, case .success(let value) = ExactDecimal.parse(Self.substring(record, rateCell)) { parsed = value }
            rate.remember(record, rateCell, as: parsed)
        }
        guard let day = date.value, let clock = time.value, let epoch = clock.utcSeconds(on: day), let exchange = rate.value,
              let type = GoogleEarningsScanner.transactionType(record, cell(.transactionType)),
              let productType = Self.productType(record, cell(.productType)),
              Self.isCurrency(record, cell(.buyerCurrency)), Self.isCurrency(record, cell(.merchantCurrency)),
              let buyer = Self.micros(record, cell(.amountBuyer)), let merchant = Self.micros(record, cell(.amountMerchant))
        else { return false }
        let refundCell = cell(.refundType)
        let refund: GoogleRefundType?
        switch refundCell.count {
        case 0: refund = nil
        case 4 where Self.equals(record, refundCell, "Full"): refund = .full
        case 7 where Self.equals(record, refundCell, "Partial"): refund = .partial
        default: return false
        }
        for (index, slot) in textSlots.enumerated() { texts[index] = fields[slot] }
        try texts.withUnsafeBufferPointer { ranges in
            try consume(GoogleEarningsCells(
                line: line, transactionDate: day, transactionEpochSeconds: epoch, transactionZone: clock.zone,
                transactionType: type, refundType: refund, productType: productType, amountBuyerMicros: buyer,
                currencyConversionRate: exchange, amountMerchantMicros: merchant,
                bytes: UnsafeRawBufferPointer(rebasing: record[0..<end]), ranges: ranges))
        }
        return true
    }

    /// `h:mm:ss AM|PM` and an optional zone of one to four capitals after one space, read in place to what
    /// `GoogleTransactionTime` reads from it (its zone the one remembered when it is the last one read); nil for any
    /// other spelling, which `GoogleTransactionTime` then reads.
    private mutating func clock(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> GoogleTransactionTime? {
        var index = range.lowerBound
        func digit() -> Int? {
            guard index < range.upperBound, bytes[index] &- 0x30 < 10 else { return nil }
            defer { index += 1 }
            return Int(bytes[index] &- 0x30)
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < range.upperBound, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard var hour = digit() else { return nil }
        if let second = digit() { hour = hour * 10 + second }
        guard expect(0x3A), let m1 = digit(), let m2 = digit(), expect(0x3A), let s1 = digit(), let s2 = digit(), expect(0x20),
              index + 2 <= range.upperBound, bytes[index + 1] == 0x4D, bytes[index] == 0x41 || bytes[index] == 0x50 else { return nil }
        let pm = bytes[index] == 0x50
        index += 2
        let minute = m1 * 10 + m2, second = s1 * 10 + s2
        guard (1...12).contains(hour), minute < 60, second < 60 else { return nil }
        var zone = index..<index
        if index < range.upperBound {
            guard expect(0x20) else { return nil }
            zone = index..<range.upperBound
            guard (1...4).contains(zone.count), bytes[zone].allSatisfy({ $0 >= 65 && $0 <= 90 }) else { return nil }
        }
        if !self.zone.holds(bytes, zone) { self.zone.remember(bytes, zone, as: String(decoding: bytes[zone], as: UTF8.self)) }
        return GoogleTransactionTime(secondsOfDay: (hour % 12 + (pm ? 12 : 0)) * 3600 + minute * 60 + second, zone: self.zone.value)
    }

    /// The offset of the first comma or quote in `from..<to` of `base`, or `to`: eight bytes at a time (a byte equal
    /// to the one sought leaves a zero byte after the exclusive or, and the lowest zero byte of a word is found
    /// exactly by the borrow test; the lowest byte is the first on a little-endian machine), then byte by byte for the last few. A record's cells are short (nine bytes on
    /// average), so this beats two `memchr` calls a cell.
    @inline(__always)
    static func commaOrQuote(_ base: UnsafeRawPointer, from: Int, to: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let commas = ones &* 0x2C, quotes = ones &* 0x22
        var at = from
        #if _endian(little)
        while at + 8 <= to {
            let word = base.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            let comma = word ^ commas, quote = word ^ quotes
            let found = ((comma &- ones) & ~comma | (quote &- ones) & ~quote) & highs
            if found != 0 { return at + (found.trailingZeroBitCount >> 3) }
            at += 8
        }
        #endif
        while at < to {
            let byte = base.load(fromByteOffset: at, as: UInt8.self)
            if byte == 0x2C || byte == 0x22 { return at }
            at += 1
        }
        return to
    }

    private static func substring(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Substring {
        Substring(String(decoding: bytes[range], as: UTF8.self))
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ text: StaticString) -> Bool {
        guard let base = bytes.baseAddress, range.count == text.utf8CodeUnitCount else { return false }
        return memcmp(base + range.lowerBound, text.utf8Start, range.count) == 0
    }

    /// `0` or `1` as written (other spellings of a whole number are left to the field-by-field reader).
    private static func productType(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64? {
        guard range.count == 1 else { return nil }
        switch bytes[range.lowerBound] {
        case 0x30: return 0
        case 0x31: return 1
        default: return nil
        }
    }

    /// Three capital letters.
    private static func isCurrency(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        range.count == 3 && bytes[range].allSatisfy { $0 >= 65 && $0 <= 90 }
    }

    /// `-?D{1,12}(.D{1,6})?` in micros, as `Micros.parse` reads it; nil for any other spelling.
    private static func micros(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == 0x2D
        if negative { index += 1 }
        var whole: Int64 = 0, digits = 0
        while index < range.upperBound, bytes[index] &- 0x30 < 10 {
            whole = whole * 10 + Int64(bytes[index] &- 0x30)
            digits += 1
            index += 1
        }
        guard (1...12).contains(digits) else { return nil }
        var fraction: Int64 = 0, decimals = 0
        if index < range.upperBound {
            guard bytes[index] == 0x2E else { return nil }
            index += 1
            while index < range.upperBound, bytes[index] &- 0x30 < 10 {
                fraction = fraction * 10 + Int64(bytes[index] &- 0x30)
                decimals += 1
                index += 1
            }
            guard index == range.upperBound, (1...6).contains(decimals) else { return nil }
        }
        while decimals < 6 { fraction *= 10; decimals += 1 }
        let value = whole * 1_000_000 + fraction
        return negative ? -value : value
    }
}

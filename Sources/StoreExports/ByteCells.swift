/// Strict readers of cell bytes for the streaming parsers' fast path. Each accepts only the plain spellings the
/// stores write and returns nil for anything else; the caller then reads the row the ordinary way, which either
/// accepts a rarer spelling or rejects the row with its usual message. So nil never means "invalid", only "not
/// the plain form", and nothing the ordinary reader rejects is accepted here.
enum ByteCells {
    typealias Bytes = UnsafeRawBufferPointer

    /// `range` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: Bytes, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// `-12.345` (optional minus, digits, optional point and 1…6 decimals, at most 18 digits) in micros.
    static func micros(_ bytes: Bytes, _ range: Range<Int>) -> Int64? {
        guard let (value, scale) = decimal(bytes, range), scale <= 6 else { return nil }
        var result = value
        for _ in scale..<6 { result *= 10 }
        return result
    }

    /// Optional minus, digits, optional point and decimals (at most 18 digits): the unscaled value and the decimals.
    static func decimal(_ bytes: Bytes, _ range: Range<Int>) -> (Int64, Int)? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == 0x2D { negative = true; index += 1 }
        var value: Int64 = 0, digits = 0, integerDigits = 0, scale = 0, point = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == 0x2E {
                guard !point else { return nil }
                point = true
            } else {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
                digits += 1
                if point { scale += 1 } else { integerDigits += 1 }
            }
            index += 1
        }
        guard integerDigits > 0, !point || scale > 0, digits <= 18 else { return nil }
        return (negative ? -value : value, scale)
    }

    /// Digits only, 1…18 of them.
    static func wholeNumber(_ bytes: Bytes, _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value: Int64 = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// Three capital letters.
    static func isCurrency(_ bytes: Bytes, _ range: Range<Int>) -> Bool {
        range.count == 3 && range.allSatisfy { bytes[$0] >= 0x41 && bytes[$0] <= 0x5A }
    }

    /// Whether the bytes of `range` spell `text`.
    static func equals(_ bytes: Bytes, _ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
        return true
    }

    /// `Nov 1, 2019`: a three-letter English month, a space, one or two digits, a comma, a space, four digits.
    static func monthNameDayYear(_ bytes: Bytes, _ range: Range<Int>) -> CalendarDate? {
        let n = range.count, s = range.lowerBound
        guard n == 11 || n == 12, bytes[s + 3] == 0x20 else { return nil }
        let dayDigits = n - 10
        guard bytes[s + 4 + dayDigits] == 0x2C, bytes[s + 5 + dayDigits] == 0x20,
              let day = wholeNumber(bytes, (s + 4)..<(s + 4 + dayDigits)),
              let year = wholeNumber(bytes, (s + 6 + dayDigits)..<(s + n)) else { return nil }
        let month = (bytes[s], bytes[s + 1], bytes[s + 2])
        guard let index = monthNames.firstIndex(where: { $0 == month }) else { return nil }
        return CalendarDate(year: Int(year), month: index + 1, day: Int(day))
    }

    static let monthNames: [(UInt8, UInt8, UInt8)] = CalendarDateFormat.monthNames.map {
        let u = Array($0.utf8)
        return (u[0], u[1], u[2])
    }

    /// `3:29:44 AM PDT` (zone PST, PDT, UTC, GMT, Z or none) on `date`, as UTC epoch seconds.
    static func transactionTime(_ bytes: Bytes, _ range: Range<Int>, on date: CalendarDate) -> Int64? {
        let s = range.lowerBound
        guard range.count >= 10 else { return nil }
        let hourDigits = bytes[s + 1] == 0x3A ? 1 : 2
        let c = s + hourDigits
        guard range.count >= hourDigits + 9, bytes[c] == 0x3A, bytes[c + 3] == 0x3A, bytes[c + 6] == 0x20,
              let hour = wholeNumber(bytes, s..<c), let minute = wholeNumber(bytes, (c + 1)..<(c + 3)),
              let second = wholeNumber(bytes, (c + 4)..<(c + 6)), (1...12).contains(hour), minute < 60, second < 60,
              bytes[c + 8] == 0x4D, bytes[c + 7] == 0x41 || bytes[c + 7] == 0x50 else { return nil }
        let pm = bytes[c + 7] == 0x50
        let secondsOfDay = Int((hour % 12 + (pm ? 12 : 0)) * 3600 + minute * 60 + second)
        let zone = (c + 9)..<range.upperBound
        if zone.isEmpty { return PacificTime.utcSeconds(date: date, secondsOfDay: secondsOfDay) }
        guard bytes[zone.lowerBound] == 0x20 else { return nil }
        let name = (zone.lowerBound + 1)..<zone.upperBound
        let local = Int64(date.daysSince1970) * 86_400 + Int64(secondsOfDay)
        if equals(bytes, name, "PDT") { return local + 25_200 }
        if equals(bytes, name, "PST") { return local + 28_800 }
        if equals(bytes, name, "UTC") || equals(bytes, name, "GMT") || equals(bytes, name, "Z") { return local }
        return nil
    }
}

/// Strict RFC 3339 parsing and formatting on integers only (no `DateFormatter`, no `Double`).
enum RFC3339Parser {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)` into seconds and nanos since the epoch.
    static func parse(_ text: String) throws(TimestampError) -> (seconds: Int64, nanos: Int32) {
        let bytes = Array(text.utf8)
        var index = 0
        func fail(_ reason: String) -> TimestampError { .invalidRFC3339(text, reason: reason) }
        func digits(_ count: Int) throws(TimestampError) -> Int {
            guard index + count <= bytes.count else { throw fail("truncated") }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { throw fail("expected a digit at offset \(index + offset)") }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ allowed: [UInt8]) throws(TimestampError) {
            guard index < bytes.count, allowed.contains(bytes[index]) else { throw fail("unexpected character at offset \(index)") }
            index += 1
        }
        let year = try digits(4); try expect([45])
        let month = try digits(2); try expect([45])
        let day = try digits(2); try expect([84, 116])
        let hour = try digits(2); try expect([58])
        let minute = try digits(2); try expect([58])
        let second = try digits(2)
        guard (1...12).contains(month) else { throw fail("month out of range") }
        guard day >= 1, day <= daysInMonth(year: year, month: month) else { throw fail("day out of range") }
        guard hour <= 23, minute <= 59, second <= 59 else { throw fail("time out of range") }
        var nanos = 0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var count = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                guard count < 9 else { throw fail("more than 9 fractional digits") }
                nanos = nanos * 10 + Int(bytes[index] - 48)
                count += 1
                index += 1
            }
            guard count > 0 else { throw fail("empty fraction") }
            for _ in count..<9 { nanos *= 10 }
        }
        guard index < bytes.count else { throw fail("missing time zone offset") }
        var offsetSeconds = 0
        if bytes[index] == 90 || bytes[index] == 122 {
            index += 1
        } else {
            let sign = bytes[index] == 45 ? -1 : 1
            try expect([43, 45])
            let offsetHour = try digits(2); try expect([58])
            let offsetMinute = try digits(2)
            guard offsetHour <= 23, offsetMinute <= 59 else { throw fail("offset out of range") }
            offsetSeconds = sign * (offsetHour * 3_600 + offsetMinute * 60)
        }
        guard index == bytes.count else { throw fail("trailing characters") }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offsetSeconds)
        return (seconds, Int32(nanos))
    }

    /// Formats an instant in UTC with the fraction's trailing zeros trimmed.
    static func format(seconds: Int64, nanos: Int32) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civilFromDays(Int(days))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay % 3_600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
        if nanos > 0 {
            var fraction = pad(Int(nanos), 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date for days since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

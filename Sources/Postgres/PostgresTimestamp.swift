import Foundation

/// Exact conversion between `Date` and PostgreSQL's ISO timestamptz text in UTC, to the microsecond.
public enum PostgresTimestamp {
    /// Formats as `YYYY-MM-DD HH:MM:SS.ffffff+00`.
    public static func format(_ date: Date) -> String {
        let totalMicros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var days = totalMicros / 86_400_000_000
        var rest = totalMicros % 86_400_000_000
        if rest < 0 { rest += 86_400_000_000; days -= 1 }
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        let seconds = rest / 1_000_000
        let micros = rest % 1_000_000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " "
            + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
            + "." + pad(micros, 6) + "+00"
    }

    /// Formats as ISO 8601 with a `Z`: `YYYY-MM-DDTHH:MM:SS.ffffffZ` (for logs, summaries and file names).
    public static func iso8601(_ date: Date) -> String {
        let text = format(date)
        return String(text.prefix(10)) + "T" + String(text.dropFirst(11).dropLast(3)) + "Z"
    }

    /// Parses the server's text for timestamptz (TimeZone=UTC, DateStyle=ISO), e.g.
    /// `2026-01-02 03:04:05.5+00` or `2026-01-02 03:04:05+05:30`; also plain `timestamp` and `date`.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var micros: Int64 = 0
        var index = 10
        if bytes.count > 10 {
            guard bytes.count >= 19, bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
                  let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
                  hour < 24, minute < 60, second < 61 else { return nil }
            micros = (Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)) * 1_000_000
            index = 19
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var scale: Int64 = 100_000
                while index < bytes.count, let digit = digitValue(bytes[index]) {
                    micros += Int64(digit) * scale
                    scale /= 10
                    index += 1
                }
            }
            if index < bytes.count {
                guard let offset = zoneOffsetSeconds(bytes, from: index) else { return nil }
                micros -= offset * 1_000_000
            }
        }
        let days = CivilCalendar.days(fromYear: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400_000_000 + micros) / 1_000_000)
    }

    private static func zoneOffsetSeconds(_ bytes: [UInt8], from start: Int) -> Int64? {
        if bytes[start] == UInt8(ascii: "Z"), start + 1 == bytes.count { return 0 }
        let sign: Int64
        switch bytes[start] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard let hours = number(bytes, start + 1, 2) else { return nil }
        var seconds = Int64(hours) * 3600
        var index = start + 3
        for unit: Int64 in [60, 1] where index < bytes.count {
            if bytes[index] == UInt8(ascii: ":") { index += 1 }
            guard let value = number(bytes, index, 2) else { return nil }
            seconds += Int64(value) * unit
            index += 2
        }
        return index == bytes.count ? sign * seconds : nil
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        guard start + length <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + length) {
            guard let digit = digitValue(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// Days since 1970-01-01 ⇄ proleptic Gregorian (year, month, day), after H. Hinnant's algorithms.
public enum CivilCalendar {
    /// The day number of a civil date.
    public static func days(fromYear year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day number.
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

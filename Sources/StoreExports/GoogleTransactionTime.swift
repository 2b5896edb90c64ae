/// A Google earnings `Transaction Time` such as `3:29:44 AM PDT` (12-hour clock, optional zone suffix).
struct GoogleTransactionTime {
    /// Seconds since local midnight.
    let secondsOfDay: Int
    /// The zone suffix as written, or empty.
    let zone: String

    /// The time `secondsOfDay` after local midnight, with the zone suffix `zone`.
    init(secondsOfDay: Int, zone: String) {
        self.secondsOfDay = secondsOfDay
        self.zone = zone
    }

    /// Reads `h:mm:ss AM|PM [ZONE]`, or nil.
    init?(_ text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 2 || parts.count == 3, parts[1] == "AM" || parts[1] == "PM" else { return nil }
        let clock = parts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock[1].count == 2, clock[2].count == 2,
              let hour = CalendarDateFormat.digits(clock[0]), let minute = CalendarDateFormat.digits(clock[1]),
              let second = CalendarDateFormat.digits(clock[2]), (1...12).contains(hour), minute < 60, second < 60 else { return nil }
        let hour24 = hour % 12 + (parts[1] == "PM" ? 12 : 0)
        secondsOfDay = hour24 * 3600 + minute * 60 + second
        zone = parts.count == 3 ? String(parts[2]) : ""
    }

    /// Epoch seconds of this time on `date`: PST/PDT/UTC/GMT by their offsets, no suffix as US Pacific.
    func utcSeconds(on date: CalendarDate) -> Int64? {
        let local = Int64(date.daysSince1970) * 86_400 + Int64(secondsOfDay)
        switch zone {
        case "PST": return local + 28_800
        case "PDT": return local + 25_200
        case "UTC", "GMT", "Z": return local
        case "": return PacificTime.utcSeconds(date: date, secondsOfDay: secondsOfDay)
        default: return nil
        }
    }
}

/// The date spellings the store reports use.
public enum CalendarDateFormat: Sendable {
    /// `MM/DD/YYYY` (Apple financial and summary sales reports).
    case monthDayYear
    /// `YYYY-MM-DD` (Apple subscriber reports, Google estimated sales).
    case iso
    /// `Nov 1, 2019` (Google earnings).
    case monthNameDayYear

    /// Parses `text`, or nil when it is not a real date in this spelling.
    public func parse(_ text: Substring) -> CalendarDate? {
        switch self {
        case .monthDayYear:
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
                  let month = Self.digits(parts[0]), let day = Self.digits(parts[1]), let year = Self.digits(parts[2]) else { return nil }
            return CalendarDate(year: year, month: month, day: day)
        case .iso:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  let year = Self.digits(parts[0]), let month = Self.digits(parts[1]), let day = Self.digits(parts[2]) else { return nil }
            return CalendarDate(year: year, month: month, day: day)
        case .monthNameDayYear:
            let parts = text.split(separator: " ")
            guard parts.count == 3, parts[1].last == ",", let month = Self.monthNames.firstIndex(of: String(parts[0])),
                  let day = Self.digits(parts[1].dropLast()), parts[2].count == 4, let year = Self.digits(parts[2]) else { return nil }
            return CalendarDate(year: year, month: month + 1, day: day)
        }
    }

    /// English three-letter month names, January first.
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Decimal digits only (no sign, not empty) to Int.
    static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }
}

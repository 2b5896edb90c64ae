/// One cell's value and how it is shown, for `Worksheet.writeRow`.
public enum Cell: Sendable, Equatable {
    /// Text (any Unicode; control characters and `_xHHHH_` look-alikes are escaped so they read back unchanged).
    case text(String)
    /// An amount of Int64 micros, rounded half to even once to `places` decimals and shown with them.
    case money(micros: Int64, places: Int)
    /// A fraction (0.125 is 12.5 %) shown with `places` decimals.
    case percent(Double, places: Int)
    /// A whole number; at most 2^53 in magnitude, where doubles stop being exact.
    case integer(Int64)
    /// A calendar day shown as an ISO date.
    case date(CalendarDay)
    /// An instant in whole seconds since 1970-01-01 UTC, shown as `yyyy-mm-dd hh:mm:ss`.
    case timestamp(epochSeconds: Int64)
    /// A general number (no rounding, General format).
    case number(Double)
    /// An empty cell (nothing is written).
    case empty
}

/// How a cell is shown: its number format (and bold for headers). The workbook creates one libxlsxwriter format
/// per style it meets and reuses it.
public enum CellStyle: Hashable, Sendable {
    /// Plain text or general number.
    case plain
    /// A bold header cell.
    case header
    /// An amount with grouping and `places` decimals (`#,##0.00` for 2).
    case money(places: Int)
    /// A fraction shown as a percentage with `places` decimals (`0.00%` for 2).
    case percent(places: Int)
    /// A whole number with grouping (`#,##0`).
    case integer
    /// An ISO date (`yyyy-mm-dd`).
    case date
    /// An ISO date and time to the second (`yyyy-mm-dd hh:mm:ss`), UTC by convention.
    case timestamp

    /// The Excel number format code, nil for the General format.
    var numberFormat: String? {
        switch self {
        case .plain, .header: return nil
        case .money(let places): return places > 0 ? "#,##0." + String(repeating: "0", count: places) : "#,##0"
        case .percent(let places): return places > 0 ? "0." + String(repeating: "0", count: places) + "%" : "0%"
        case .integer: return "#,##0"
        case .date: return "yyyy-mm-dd"
        case .timestamp: return "yyyy-mm-dd hh:mm:ss"
        }
    }
}

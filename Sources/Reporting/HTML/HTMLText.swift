import Foundation
import Postgres
import XLSX

/// Text for the HTML report: escaping for element content and attribute values, and a sheet cell shown as its
/// exact figure (the same digits the CSV carries for an amount).
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// True for a cell that shows a number (an amount, count, percentage or plain number): right-aligned in a table.
    static func isNumber(_ cell: Cell) -> Bool {
        switch cell {
        case .money, .integer, .percent, .number: return true
        default: return false
        }
    }

    /// The text a cell shows: an amount as its exact decimal in the currency's minor units, a percentage with its
    /// places, a day or instant in ISO form.
    static func shown(_ cell: Cell) -> String {
        switch cell {
        case .text(let text): return text
        case .money(let micros, let places):
            return (try? DecimalAmount(micros: micros, places: places).exactDecimal) ?? String(micros) + " micros"
        case .percent(let value, let places): return String(format: "%.\(places)f%%", value * 100)
        case .integer(let value): return String(value)
        case .date(let day): return String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
        case .timestamp(let seconds): return PostgresTimestamp.iso8601(Date(timeIntervalSince1970: TimeInterval(seconds)))
        case .number(let value): return String(value)
        case .empty: return ""
        }
    }
}

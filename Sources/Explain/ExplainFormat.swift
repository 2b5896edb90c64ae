import BillingCore
import Foundation
import Postgres

/// How explain writes instants and money: UTC ISO 8601; micros as exact six-place decimals in the JSON form
/// (`money`) and in the currency's own digits in the text form (`amount`), with their currency.
public enum ExplainFormat {
    /// `2026-01-01T00:00:00Z`, with microseconds only when the instant has them.
    public static func instant(_ date: Date) -> String {
        let text = PostgresTimestamp.iso8601(date)
        return text.hasSuffix(".000000Z") ? String(text.dropLast(8)) + "Z" : text
    }

    /// `instant(date)`, or empty for nil.
    public static func instant(_ date: Date?) -> String { date.map { instant($0) } ?? "" }

    /// `9.990000 USD` (six places, never rounded, never a Double): the JSON form's text; empty without an amount.
    public static func money(_ micros: Int64?, _ currency: String?) -> String {
        guard let micros else { return "" }
        return Micros.decimalString(micros) + (currency.map { " " + $0 } ?? "")
    }

    /// `450 JPY`, `9.99 USD`, `-1.234 KWD`: the amount with its currency's ISO 4217 digits (`CurrencyDigits`), never
    /// rounded: an amount more precise than its currency shows every digit it has (`9.995 USD`, `450.5 JPY`).
    /// Without a currency, the exact decimal with no trailing zeros; empty without an amount.
    public static func amount(_ micros: Int64?, _ currency: String?) -> String {
        guard let micros else { return "" }
        let places = currency.map { CurrencyDigits.places(of: $0) } ?? 0
        let parts = Micros.decimalString(micros).split(separator: ".")
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        while fraction.count > places, fraction.last == "0" { fraction.removeLast() }
        let text = String(parts[0]) + (fraction.isEmpty ? "" : "." + fraction)
        return text + (currency.map { " " + $0 } ?? "")
    }
}

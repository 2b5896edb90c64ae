import Foundation
import Postgres

/// How explain writes instants and money: UTC ISO 8601, and micros as exact decimals with their currency.
public enum ExplainFormat {
    /// `2026-01-01T00:00:00Z`, with microseconds only when the instant has them.
    public static func instant(_ date: Date) -> String {
        let text = PostgresTimestamp.iso8601(date)
        return text.hasSuffix(".000000Z") ? String(text.dropLast(8)) + "Z" : text
    }

    /// `instant(date)`, or empty for nil.
    public static func instant(_ date: Date?) -> String { date.map { instant($0) } ?? "" }

    /// `9.990000 USD` (six places, never rounded, never a Double); empty without an amount.
    public static func money(_ micros: Int64?, _ currency: String?) -> String {
        guard let micros else { return "" }
        return Micros.decimalString(micros) + (currency.map { " " + $0 } ?? "")
    }
}

import Postgres

/// How a header field or detail value reads in explain's text form (the JSON form keeps the stored text): amounts
/// in the currency's own digits (`9.99 USD`, not `9.990000 USD`), store reason codes with their names
/// (`other (0)`); any other value as it is.
enum TextValue {
    /// Fields and details whose value is an amount as `ExplainFormat.money` writes it.
    static let moneyNames: Set<String> = ["price", "old_price", "new_price", "proceeds"]

    /// The value of the field or detail `name` as text shows it.
    static func show(_ name: String, _ value: String) -> String {
        if moneyNames.contains(name) {
            let parts = value.split(separator: " ")
            guard (1...2).contains(parts.count), let micros = try? Micros.parse(String(parts[0])) else { return value }
            return ExplainFormat.amount(micros, parts.count == 2 ? String(parts[1]) : nil)
        }
        if let codes = StoreReasonCode(detail: name), let code = Int64(value) { return codes.describe(code) }
        return value
    }
}

/// How a report column is written, decided by its name alone (the report contract in Reports/README.md).
public enum ColumnRole: Equatable, Sendable {
    /// `*_micros`: integer micros in the row's currency; written as the amount column `*` (decimal, the currency's
    /// ISO 4217 minor units, half to even) followed by the micros themselves.
    case micros
    /// `*_count`, `*_subscribers`, `*_twelfths` (exact money in twelfths of a micro): a whole number.
    case count
    /// `*_rate`: a fraction 0..1 (exact decimal in CSV, a percentage in XLSX).
    case rate
    /// `*_days`: a number of days.
    case days
    /// `rate_to_*`, `*_rate_to_*`: an exchange rate (the exact decimal in CSV, a plain number in XLSX; not a fraction).
    case exchangeRate
    /// `is_*`: a yes/no flag, written `true` / `false`.
    case flag
    /// `*_at`: an instant, written as ISO 8601 UTC (`2026-11-30T23:59:59.999000Z`).
    case instant
    /// A store or billing identifier, masked unless `--raw-ids`.
    case identifier
    /// The row's ISO currency code.
    case currency
    /// Anything else: text as the SQL gives it.
    case text

    /// The identifier columns of the contract.
    public static let identifiers: Set<String> = ["subscription_id", "billing_account_id", "original_transaction_id",
                                                  "transaction_id", "purchase_token", "order_id"]

    /// The role of column `name`.
    public static func of(_ name: String) -> ColumnRole {
        if identifiers.contains(name) { return .identifier }
        if name == "currency" { return .currency }
        if name.hasSuffix("_micros") { return .micros }
        if name.hasSuffix("_count") || name.hasSuffix("_subscribers") || name.hasSuffix("_twelfths") { return .count }
        if name.hasPrefix("rate_to_") || name.contains("_rate_to_") { return .exchangeRate }
        if name.hasPrefix("is_") { return .flag }
        if name.hasSuffix("_rate") { return .rate }
        if name.hasSuffix("_days") { return .days }
        if name.hasSuffix("_at") { return .instant }
        return .text
    }

    /// The name of the decimal amount column written for micros column `name` (`mrr_micros` → `mrr`).
    public static func amountName(_ name: String) -> String { String(name.dropLast("_micros".count)) }
}

import StoreExports

/// Google's buyer → merchant rates gathered while an earnings file streams by: per currency pair, the rate of the
/// latest transaction (ties: the later line). A handful of pairs, whatever the file's size.
public struct GoogleEarningsRates: Sendable {
    private var latest: [String: (at: Int64, line: Int, from: String, to: String, rate: ExactDecimal)] = [:]

    /// No rates yet.
    public init() {}

    /// Notes `row`'s rate; rows in the merchant currency and rates that are not positive give nothing.
    public mutating func add(_ row: GoogleEarningsRow) {
        guard row.buyerCurrency != row.merchantCurrency, row.currencyConversionRate.unscaled > 0 else { return }
        let key = row.buyerCurrency + ">" + row.merchantCurrency
        if let kept = latest[key], (kept.at, kept.line) > (row.transactionEpochSeconds, row.line) { return }
        latest[key] = (row.transactionEpochSeconds, row.line, row.buyerCurrency, row.merchantCurrency, row.currencyConversionRate)
    }

    /// The rates of `month` (`YYYY-MM`, the file name's month) by pair; empty without a month.
    public func rates(month: String) -> [FXRateRow] {
        guard month.utf8.count == 7 else { return [] }
        return latest.keys.sorted().compactMap { key in
            guard let kept = latest[key] else { return nil }
            return FXRateRow(month: month + "-01", from: kept.from, to: kept.to, rate: kept.rate, source: "google_earnings")
        }
    }
}

import StoreExports

/// Google's buyer → merchant rates gathered while an earnings file streams by: per currency pair, the rate of the
/// latest transaction (ties: the later line). A handful of pairs, whatever the file's size.
public struct GoogleEarningsRates: Sendable {
    private var latest: [String: (at: Int64, line: Int, from: String, to: String, rate: ExactDecimal)] = [:]

    /// No rates yet.
    public init() {}

    /// Notes `row`'s rate; rows in the merchant currency and rates that are not positive give nothing.
    public mutating func add(_ row: GoogleEarningsRow) {
        add(from: row.buyerCurrency, to: row.merchantCurrency, rate: row.currencyConversionRate, at: row.transactionEpochSeconds,
            line: row.line)
    }

    /// Notes the rate of a row read in place (the import's rows).
    public mutating func add(_ cells: GoogleEarningsCells) {
        let from = cells.text(.buyerCurrency), to = cells.text(.merchantCurrency)
        guard cells.currencyConversionRate.unscaled > 0, !from.elementsEqual(to) else { return }
        add(from: String(decoding: from, as: UTF8.self), to: String(decoding: to, as: UTF8.self), rate: cells.currencyConversionRate,
            at: cells.transactionEpochSeconds, line: cells.line)
    }

    private mutating func add(from: String, to: String, rate: ExactDecimal, at: Int64, line: Int) {
        guard from != to, rate.unscaled > 0 else { return }
        let key = from + ">" + to
        if let kept = latest[key], (kept.at, kept.line) > (at, line) { return }
        latest[key] = (at, line, from, to, rate)
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

import CompactMemory
import StoreExports

/// Google's buyer → merchant rates gathered while an earnings file streams by: per currency pair, the rate of the
/// latest transaction (ties: the later line). A handful of pairs, whatever the file's size.
public struct GoogleEarningsRates: Sendable {
    /// A pair's latest rate.
    private typealias Kept = (at: Int64, line: Int, from: String, to: String, rate: ExactDecimal)
    private var latest: [String: Kept] = [:]
    /// The pairs of rows read in place whose currencies are ASCII, by their bytes: a row of a pair seen before is
    /// matched by comparing a few bytes (for ASCII, equal bytes are equal strings), not by making and hashing strings.
    private var ascii: [(from: [UInt8], to: [UInt8], kept: Kept)] = []

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
        let rate = cells.currencyConversionRate, at = cells.transactionEpochSeconds, line = cells.line
        guard rate.unscaled > 0, !ByteInterner.equal(from, to) else { return }
        guard from.allSatisfy({ $0 < 0x80 }), to.allSatisfy({ $0 < 0x80 }) else {
            add(from: String(decoding: from, as: UTF8.self), to: String(decoding: to, as: UTF8.self), rate: rate, at: at, line: line)
            return
        }
        for index in ascii.indices where ascii[index].from.withUnsafeBytes({ ByteInterner.equal($0, from) })
            && ascii[index].to.withUnsafeBytes({ ByteInterner.equal($0, to) }) {
            if (ascii[index].kept.at, ascii[index].kept.line) > (at, line) { return }
            (ascii[index].kept.at, ascii[index].kept.line, ascii[index].kept.rate) = (at, line, rate)
            return
        }
        ascii.append((Array(from), Array(to), (at, line, String(decoding: from, as: UTF8.self), String(decoding: to, as: UTF8.self), rate)))
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
        var all = latest
        for pair in ascii {
            let key = pair.kept.from + ">" + pair.kept.to
            if let kept = all[key], (kept.at, kept.line) > (pair.kept.at, pair.kept.line) { continue }
            all[key] = pair.kept
        }
        return all.keys.sorted().compactMap { key in
            guard let kept = all[key] else { return nil }
            return FXRateRow(month: month + "-01", from: kept.from, to: kept.to, rate: kept.rate, source: "google_earnings")
        }
    }
}

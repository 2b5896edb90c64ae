import BillingCore
import Foundation
import StoreExports

/// One monthly exchange rate: units of `to` per unit of `from`, exactly as written.
public struct FXRateRow: Sendable, Equatable {
    /// The first day of the month (`YYYY-MM-01`).
    public let month: String
    /// ISO 4217 code converted from.
    public let from: String
    /// ISO 4217 code converted to.
    public let to: String
    /// The rate as written (positive).
    public let rate: ExactDecimal
    /// `csv`, `apple_payments` or `google_earnings`.
    public let source: String
}

/// Reads exchange rates: the `date,currency,rate` CSV (USD per unit), Apple's payments summary and Google's
/// earnings `Currency Conversion Rate`.
public enum FXRateSources {
    /// The rows of a `date,currency,rate` CSV (rate = USD per 1 unit of currency), or a `StoreReportError`.
    public static func csv(_ bytes: [UInt8], file: String) throws -> [FXRateRow] {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard let header = lines.first, header.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
                == ["date", "currency", "rate"] else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "header must be 'date,currency,rate'")
        }
        var rows: [FXRateRow] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let number = index + 1
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { Substring($0.trimmingCharacters(in: .whitespaces)) }
            guard cells.count == 3 else {
                throw StoreReportError(file: file, line: number, column: min(cells.count, 4), reason: "expected 3 fields, found \(cells.count)")
            }
            guard let date = CalendarDateFormat.iso.parse(cells[0]) else {
                throw StoreReportError(file: file, line: number, column: 1, reason: "'\(Redaction.excerpt(cells[0]))' is not a YYYY-MM-DD date")
            }
            guard cells[1].utf8.count == 3, cells[1].utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
                throw StoreReportError(file: file, line: number, column: 2, reason: "'\(Redaction.excerpt(cells[1]))' is not a currency code")
            }
            guard case .success(let rate) = ExactDecimal.parse(cells[2]), rate.unscaled > 0 else {
                throw StoreReportError(file: file, line: number, column: 3, reason: "'\(Redaction.excerpt(cells[2]))' is not a positive rate")
            }
            rows.append(FXRateRow(month: monthStart(date.year, date.month), from: String(cells[1]), to: "USD", rate: rate, source: "csv"))
        }
        return rows
    }

    /// Apple's exchange rates from a payments summary (region currency → bank currency), for the month its
    /// title names (`September, 2014`); empty when the title has no English month or a row has no rate.
    public static func applePayments(_ summary: ApplePaymentsSummary) -> [FXRateRow] {
        guard let label = summary.periodLabel, let month = namedMonth(label) else { return [] }
        return summary.rows.compactMap { row in
            guard let rate = row.exchangeRate, rate.unscaled > 0, let bank = row.bankAccountCurrency, bank != row.currency else { return nil }
            return FXRateRow(month: month, from: row.currency, to: bank, rate: rate, source: "apple_payments")
        }
    }

    /// Google's buyer → merchant rates from an earnings report of `month` (`YYYY-MM`, the file name's month): per
    /// currency pair, the rate of the month's latest transaction (ties: the later line), so the month's rate is the
    /// one in force at its end. Rows in the merchant currency and rates that are not positive give nothing.
    public static func googleEarnings(_ rows: [GoogleEarningsRow], month: String) -> [FXRateRow] {
        var latest = GoogleEarningsRates()
        for row in rows { latest.add(row) }
        return latest.rates(month: month)
    }

    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// `September, 2014` → `2014-09-01`.
    static func namedMonth(_ label: String) -> String? {
        titleMonth(label).map { monthStart($0.year, $0.month) }
    }

    /// The calendar month a payments summary's title names (`September, 2014` → (2014, 9)); nil without an English month.
    static func titleMonth(_ label: String) -> (year: Int, month: Int)? {
        let parts = label.split(whereSeparator: { $0 == "," || $0 == " " })
        guard parts.count == 2, let index = monthNames.firstIndex(of: parts[0].lowercased()), let year = Int(parts[1]),
              (1900...9999).contains(year) else { return nil }
        return (year, index + 1)
    }

    static func monthStart(_ year: Int, _ month: Int) -> String {
        "\(year)-" + (month < 10 ? "0\(month)" : "\(month)") + "-01"
    }
}

import BillingCore
import JobKit
import XLSX

/// The cover's headline numbers for one month, read from the rows the workbook's own reports returned: MRR in the
/// reporting currency at the month's snapshot with its movement (the `mrr_bridge` rows of view `reporting`, added
/// over the providers), and the month's refunds and chargebacks (the `refunds` rows by refund month, per currency,
/// never converted). Each figure is the sum of the CSV cells it names (the amounts as shown, rounded to the currency's
/// minor units; with one provider the cell itself), so a reader finds it there.
enum CoverHeadline {
    /// The reports the headline reads (kept whole by the job, as a report with charts is).
    static let reports: Set<String> = ["mrr_bridge", "refunds"]
    /// The bridge columns shown, in order, with their cover labels.
    static let bridgeColumns: [(column: String, label: String)] = [
        ("start_mrr_micros", "MRR at the start"),
        ("new_micros", "+ new"),
        ("expansion_micros", "+ expansion"),
        ("reactivation_micros", "+ reactivation"),
        ("contraction_micros", "− contraction"),
        ("churn_micros", "− churn"),
        ("fx_micros", "+ FX"),
        ("mrr_micros", "MRR at the end"),
    ]
    /// The label of the net new MRR row.
    static let netLabel = "Net new MRR (new + expansion + reactivation − contraction − churn)"

    /// The headline rows for `month` in `currency` (the reporting currency); `partial` flags a month whose snapshot
    /// is the as-of instant rather than its end. `bridge` and `refunds` are those reports' rows (nil: not run).
    static func rows(month: ReportMonth, partial: Bool, currency: String, bridge: ReportTable?,
                     refunds: ReportTable?) throws -> [(String, Cell)] {
        let status = partial ? "partial: the month is still running; its figures are taken at the as-of instant"
            : "closed: figures at the month's last instant"
        var rows: [(String, Cell)] = [("Headline month", .text("\(month) (\(status))"))]
        let places = CurrencyDigits.places(of: currency)
        if let bridge, let sums = try bridgeSums(bridge, month: month, currency: currency, places: places) {
            rows.append(("MRR \(month)\(partial ? " (partial)" : "") in \(currency)", .text("mrr_bridge.csv, view reporting, all providers")))
            for (column, label) in bridgeColumns {
                rows.append(("  " + label, .money(micros: sums[column] ?? 0, places: places)))
            }
            let net = (sums["new_micros"] ?? 0) + (sums["expansion_micros"] ?? 0) + (sums["reactivation_micros"] ?? 0)
                - (sums["contraction_micros"] ?? 0) - (sums["churn_micros"] ?? 0)
            rows.append(("  " + netLabel, .money(micros: net, places: places)))
            rows.append(("  note", .text("the bridge adds up exactly in the CSV's *_micros columns; each amount here is rounded from them "
                + "on its own, so the lines may miss their sum by a minor unit or two")))
        } else {
            rows.append(("MRR \(month) in \(currency)", .text("no mrr_bridge row for the month")))
        }
        if let refunds {
            rows.append(("Refunds and chargebacks \(month)\(partial ? " (partial)" : "")", .text("refunds.csv, view by_refund_month")))
            let perCurrency = try refundSums(refunds, month: month)
            if perCurrency.isEmpty { rows.append(("  none", .integer(0))) }
            for (code, sum) in perCurrency {
                rows.append(("  \(code) count", .integer(sum.count)))
                rows.append(("  \(code) amount", .money(micros: sum.micros, places: CurrencyDigits.places(of: code))))
            }
        }
        return rows
    }

    /// The bridge's movement columns, each row's amount rounded to `places` as its CSV cell shows it, summed over the
    /// rows of `month`, view `reporting`, `currency`, as micros; nil when there is no such row.
    static func bridgeSums(_ table: ReportTable, month: ReportMonth, currency: String, places: Int) throws -> [String: Int64]? {
        guard let monthAt = table.index(of: "month"), let viewAt = table.index(of: "view"),
              let currencyAt = table.index(of: "currency") else { return nil }
        var sums: [String: Int64] = [:], found = false
        for row in table.rows where row[monthAt] == month.description && row[viewAt] == "reporting" && row[currencyAt] == currency {
            found = true
            for (column, _) in bridgeColumns {
                guard let at = table.index(of: column) else { continue }
                sums[column, default: 0] += try shown(row[at], places: places, column: column, report: "mrr_bridge")
            }
        }
        return found ? sums : nil
    }

    /// Refunds and chargebacks (not family revocations, which move no money) of refund month `month`, per currency
    /// in code order: their count and the money returned (each row's amount as its CSV cell shows it, as micros).
    static func refundSums(_ table: ReportTable, month: ReportMonth) throws -> [(String, (count: Int64, micros: Int64))] {
        guard let viewAt = table.index(of: "view"), let monthAt = table.index(of: "month"), let currencyAt = table.index(of: "currency"),
              let kindAt = table.index(of: "refund_kind"), let countAt = table.index(of: "refunds_count"),
              let microsAt = table.index(of: "refunds_micros") else { return [] }
        var sums: [String: (count: Int64, micros: Int64)] = [:]
        for row in table.rows where row[viewAt] == "by_refund_month" && row[monthAt] == month.description && row[kindAt] != "FAMILY_REVOKE" {
            let code = row[currencyAt] ?? "?"
            let count = try whole(row[countAt], column: "refunds_count", report: "refunds")
            let micros = try shown(row[microsAt], places: CurrencyDigits.places(of: code), column: "refunds_micros", report: "refunds")
            sums[code, default: (0, 0)] = (sums[code, default: (0, 0)].count + count, sums[code, default: (0, 0)].micros + micros)
        }
        return sums.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `text`'s micros rounded to `places` as the report's amount cell shows them, back in micros.
    static func shown(_ text: String?, places: Int, column: String, report: String) throws -> Int64 {
        let micros = try whole(text, column: column, report: report)
        return try DecimalAmount(micros: micros, places: places).units * DecimalAmount.scale(places)
    }

    /// `text` as a whole number (0 when NULL), or an error naming the report and column.
    static func whole(_ text: String?, column: String, report: String) throws -> Int64 {
        guard let text else { return 0 }
        guard let value = Int64(text) else { throw JobError.failed("report \(report) column \(column): '\(text)' is not a whole number") }
        return value
    }
}

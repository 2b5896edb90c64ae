import BillingCore
import Foundation
import JobKit
import XLSX

/// The month-end pack: the numbers a finance lead reads first, for the last complete month of the run against the
/// month before, each with its change, read from the rows the run's own reports returned (so each figure is a CSV
/// cell): `kpis` (all providers, reporting currency) for MRR, ARR, the bridge, paying accounts, churn and NRR, ARPPU,
/// quick ratio and the refund and chargeback rates; `trial_conversion` for the trials that started in the month;
/// `reconciliation` for each store's status in the month's period.
enum MonthEndPack {
    /// The reports the pack reads (kept whole by the job, as a charted report is).
    static let reports: Set<String> = ["kpis", "trial_conversion", "reconciliation"]

    /// One line of the pack: the label, the month before, the month, and the change (empty where a change means
    /// nothing, as for text).
    struct Line {
        let label: String
        let previous: Cell
        let current: Cell
        let change: Cell
    }

    /// The pack of one run: its month, the reporting currency and the lines.
    struct Block {
        let month: ReportMonth
        let currency: String
        let lines: [Line]

        /// The heading row: what the pack is, then the column titles.
        var heading: [String] {
            ["Month-end pack: \(month) against \(month.advanced(by: -1)), all providers, \(currency) (kpis.csv, trial_conversion.csv, "
                + "reconciliation.csv)", "\(month.advanced(by: -1))", "\(month)", "change"]
        }
    }

    /// The `kpis` columns shown, with their labels, in order.
    static let kpiLines: [(column: String, label: String)] = [
        ("mrr_micros", "MRR"), ("arr_micros", "ARR"), ("net_new_mrr_micros", "Net new MRR"),
        ("new_micros", "  new"), ("expansion_micros", "  expansion"), ("reactivation_micros", "  reactivation"),
        ("contraction_micros", "  contraction"), ("churn_micros", "  churn"),
        ("paying_accounts_count", "Paying accounts"), ("arppu_micros", "ARPPU (MRR per paying account)"),
        ("logo_churn_rate", "Logo churn rate"), ("revenue_churn_rate", "Revenue churn rate"), ("nrr_rate", "Net revenue retention"),
        ("quick_ratio", "Quick ratio"), ("refund_rate", "Refund rate"), ("chargeback_rate", "Chargeback rate"),
    ]

    /// The month the pack is about: the last month of the run when it is complete, else the one before it.
    static func month(last: ReportMonth, partial: Bool) -> ReportMonth { partial ? last.advanced(by: -1) : last }

    /// The pack's lines for `month` against the month before, or nil when `kpis` was not run.
    static func lines(month: ReportMonth, currency: String, kpis: ReportTable?, trials: ReportTable?,
                      reconciliation: ReportTable?) throws -> [Line]? {
        guard let kpis else { return nil }
        let previous = month.advanced(by: -1)
        let places = CurrencyDigits.places(of: currency)
        let before = row(kpis, month: previous), now = row(kpis, month: month)
        var lines: [Line] = []
        for (column, label) in kpiLines {
            guard let at = kpis.index(of: column) else { continue }
            let a = try cell(before?[at], column: column, places: places), b = try cell(now?[at], column: column, places: places)
            lines.append(Line(label: label, previous: a, current: b, change: difference(a, b)))
        }
        if let trials {
            let a = try conversion(trials, month: previous), b = try conversion(trials, month: month)
            lines.append(Line(label: "Trial conversion (trials started in the month, decided)", previous: a, current: b, change: difference(a, b)))
        }
        if let reconciliation {
            for (provider, text) in try reconciliationStatus(reconciliation, month: month) {
                lines.append(Line(label: "Reconciliation \(provider)", previous: .empty, current: .text(text), change: .empty))
            }
        }
        return lines
    }

    /// The `ALL` providers row of `month` in `kpis`.
    static func row(_ kpis: ReportTable, month: ReportMonth) -> [String?]? {
        guard let monthAt = kpis.index(of: "month"), let providerAt = kpis.index(of: "provider") else { return nil }
        return kpis.rows.first { $0[monthAt] == month.description && $0[providerAt] == "ALL" }
    }

    /// A `kpis` value as a cell by its column's role: an amount in the reporting currency's digits, a count, a rate
    /// as a percentage, the quick ratio as a number; empty for NULL.
    static func cell(_ text: String?, column: String, places: Int) throws -> Cell {
        guard let text else { return .empty }
        func bad() -> JobError { JobError.failed("report kpis column \(column): '\(text)' is not a number") }
        if column.hasSuffix("_micros") { guard let micros = Int64(text) else { throw bad() }; return .money(micros: micros, places: places) }
        if column.hasSuffix("_count") { guard let count = Int64(text) else { throw bad() }; return .integer(count) }
        guard let value = Double(text) else { throw bad() }
        return column.hasSuffix("_rate") ? .percent(value, places: 2) : .number(value)
    }

    /// `b − a` for two cells of one kind (an amount's change between the amounts as shown; a rate's change in
    /// percentage points, shown as a percentage); empty otherwise.
    static func difference(_ a: Cell, _ b: Cell) -> Cell {
        switch (a, b) {
        case (.money(let x, let places), .money(let y, _)):
            // The change of the amounts as shown (each rounded to the currency's digits), so the three cells add up.
            guard let a = try? DecimalAmount(micros: x, places: places), let b = try? DecimalAmount(micros: y, places: places) else { return .empty }
            return .money(micros: (b.units - a.units) * DecimalAmount.scale(places), places: places)
        case (.integer(let x), .integer(let y)): return .integer(y - x)
        case (.percent(let x, let places), .percent(let y, _)): return .percent(y - x, places: places)
        case (.number(let x), .number(let y)): return .number(((y - x) * 10_000).rounded() / 10_000)
        default: return .empty
        }
    }

    /// The conversion of the trials that started in `month` (view `cohort`, every provider, product and country):
    /// converted over decided (converted, cancelled or failed), as the report's rate is; empty when none decided.
    static func conversion(_ table: ReportTable, month: ReportMonth) throws -> Cell {
        guard let viewAt = table.index(of: "view"), let monthAt = table.index(of: "month"),
              let convertedAt = table.index(of: "converted_count"), let cancelledAt = table.index(of: "cancelled_count"),
              let failedAt = table.index(of: "failed_count") else { return .empty }
        var converted: Int64 = 0, decided: Int64 = 0
        for row in table.rows where row[viewAt] == "cohort" && row[monthAt] == month.description {
            let x = try CoverHeadline.whole(row[convertedAt], column: "converted_count", report: "trial_conversion")
            converted += x
            decided += x + (try CoverHeadline.whole(row[cancelledAt], column: "cancelled_count", report: "trial_conversion"))
                + (try CoverHeadline.whole(row[failedAt], column: "failed_count", report: "trial_conversion"))
        }
        return decided == 0 ? .empty : .percent(Double(converted) / Double(decided), places: 2)
    }

    /// Per provider, in name order, the status of its reconciliation for `month` (Google's month, Apple's fiscal
    /// period named after it): the stored run's instant, its items outside `matched` and their categories, the variance
    /// per currency; one line saying no run is stored when no store has one.
    static func reconciliationStatus(_ table: ReportTable, month: ReportMonth) throws -> [(String, String)] {
        guard let providerAt = table.index(of: "provider"), let monthAt = table.index(of: "calendar_month"),
              let kindAt = table.index(of: "row_kind"), let categoryAt = table.index(of: "category"),
              let itemsAt = table.index(of: "items_count"), let varianceAt = table.index(of: "variance_micros"),
              let currencyAt = table.index(of: "currency"), let knownAt = table.index(of: "known_at") else { return [] }
        var byProvider: [String: (known: String, items: Int64, categories: Set<String>, variance: [String: Int64])] = [:]
        for row in table.rows where row[monthAt] == month.description {
            guard let provider = row[providerAt] else { continue }
            var entry = byProvider[provider] ?? (row[knownAt] ?? "", 0, [], [:])
            if row[kindAt] == "category", let category = row[categoryAt], category != "matched" {
                let items = try CoverHeadline.whole(row[itemsAt], column: "items_count", report: "reconciliation")
                entry.items += items
                if items > 0 { entry.categories.insert(category) }
            }
            if row[kindAt] == "total", let currency = row[currencyAt] {
                entry.variance[currency, default: 0] += try CoverHeadline.whole(row[varianceAt], column: "variance_micros", report: "reconciliation")
            }
            byProvider[provider] = entry
        }
        if byProvider.isEmpty { return [("(every store)", "no reconciliation run stored for \(month)")] }
        return byProvider.sorted { $0.key < $1.key }.map { provider, entry in
            let variance = entry.variance.keys.sorted().map { code -> String in
                let amount = (try? DecimalAmount(micros: entry.variance[code] ?? 0, places: CurrencyDigits.places(of: code)).exactDecimal) ?? "?"
                return "\(amount) \(code)"
            }
            let known = entry.known.isEmpty ? "" : "run of \(entry.known): "
            let items = entry.items == 0 ? "every unit matched"
                : "\(entry.items) item(s) explained outside matched: \(entry.categories.sorted().joined(separator: ", "))"
            return (provider, known + items + (variance.isEmpty ? "" : "; variance " + variance.joined(separator: ", ")))
        }
    }
}

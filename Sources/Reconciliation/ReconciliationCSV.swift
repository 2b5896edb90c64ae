import Foundation

/// The CSV files of a run: every item, and the totals per currency and category. Deterministic: the same items
/// give the same bytes (no run id, no clock).
public enum ReconciliationCSV {
    static let itemColumns = ["line", "category", "side", "grain_key", "product_id", "country", "currency", "database_currency",
                              "report_units", "database_units", "report_gross_micros", "database_gross_micros", "variance_micros",
                              "store_fee_micros", "tax_micros", "net_micros", "prior_period_adjustment", "adjustment_period", "detail"]

    /// The items file.
    public static func items(_ items: [ReconciliationItem]) -> [UInt8] {
        var text = itemColumns.joined(separator: ",") + "\n"
        for (index, item) in items.enumerated() {
            let fields: [String] = [
                String(index + 1), item.category.rawValue, item.side, item.grainKey, item.productId, item.country, item.currency,
                item.databaseCurrency ?? "", String(item.reportUnits), String(item.databaseUnits), String(item.reportGross),
                String(item.databaseGross), String(item.variance), String(item.storeFee), String(item.tax), String(item.net),
                item.priorPeriodAdjustment ? "true" : "false", item.adjustmentPeriod ?? "", item.detail,
            ]
            text += fields.map(quote).joined(separator: ",") + "\n"
        }
        return Array(text.utf8)
    }

    /// The totals file: per currency one `total` line, then one line per category with its share of the variance.
    public static func totals(_ totals: ReconciliationTotals) -> [UInt8] {
        var text = "currency,line,items,report_gross_micros,database_gross_micros,variance_micros,store_fee_micros,tax_micros,net_micros\n"
        for currency in totals.currencies.keys.sorted() {
            guard let line = totals.currencies[currency] else { continue }
            let count = line.counts.values.reduce(0, +)
            text += [currency, "total", String(count), String(line.reportGross), String(line.databaseGross), String(line.variance),
                     String(line.storeFee), String(line.tax), String(line.net)].joined(separator: ",") + "\n"
            for category in ReconciliationCategory.allCases where line.counts[category] != nil || line.byCategory[category] != nil {
                text += [currency, category.rawValue, String(line.counts[category] ?? 0), "", "",
                         String(line.byCategory[category] ?? 0), "", "", ""].joined(separator: ",") + "\n"
            }
        }
        return Array(text.utf8)
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

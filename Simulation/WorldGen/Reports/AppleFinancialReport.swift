/// Apple Financial Reports (FINANCIAL): one tab-separated file per fiscal period and region, plus the
/// consolidated ZZ file with its per-country summary, as docs/store-exports.md describes.
struct AppleFinancialReport {
    let products: ReportProducts
    /// Units by aggregated row, per fiscal period (filled by `add`).
    private var periods: [AppleFiscalPeriod: [Row: Int64]] = [:]

    init(products: ReportProducts) { self.products = products }

    static let columns = ["Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
                          "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
                          "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
                          "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
                          "Customer Price", "Customer Currency"]

    /// One aggregated row: the grain Apple reports at.
    struct Row: Hashable, Comparable {
        var plan: Int
        var country: String
        var currency: String
        /// Signed customer price per unit (negative on returns).
        var priceMicros: Int64
        var isReturn: Bool

        static func < (a: Row, b: Row) -> Bool {
            (a.currency, a.plan, a.country, a.isReturn ? 1 : 0, a.priceMicros) < (b.currency, b.plan, b.country, b.isReturn ? 1 : 0, b.priceMicros)
        }
    }

    /// Adds entries (the ledger in any number of calls).
    mutating func add(_ entries: [ReportEntry]) {
        for entry in entries where entry.isApple && !entry.isFree {
            let isReturn = entry.kind == .refund
            let row = Row(plan: entry.plan, country: entry.country, currency: entry.currency,
                          priceMicros: isReturn ? -entry.amountMicros : entry.amountMicros, isReturn: isReturn)
            periods[AppleFiscalPeriod.containing(ms: entry.atMs), default: [:]][row, default: 0] += isReturn ? -1 : 1
        }
    }

    /// The files of every entry added, keyed by path under `reports/` (`apple/finance/FINANCIAL_<region>_<fiscal YYYY-MM>.txt`).
    func files() -> [String: String] {
        var result: [String: String] = [:]
        for (period, rows) in periods {
            let regions = Dictionary(grouping: rows.keys, by: { ReportProducts.appleRegion($0.currency) })
            for (region, keys) in regions {
                result["apple/finance/FINANCIAL_\(region)_\(period.reportDate).txt"] =
                    render(period, keys.sorted().map { ($0, rows[$0] ?? 0) }, consolidated: false)
            }
            result["apple/finance/FINANCIAL_ZZ_\(period.reportDate).txt"] =
                render(period, rows.keys.sorted().map { ($0, rows[$0] ?? 0) }, consolidated: true)
        }
        return result
    }

    func render(_ period: AppleFiscalPeriod, _ rows: [(Row, Int64)], consolidated: Bool) -> String {
        var lines = [Self.columns.joined(separator: "\t")]
        var totalAmount: Int64 = 0, totalUnits: Int64 = 0
        var summary: [String: (units: Int64, amount: Int64)] = [:]
        for (row, quantity) in rows {
            let plan = products.catalogue.plans[row.plan]
            let share = ReportProducts.appleProceeds(abs(row.priceMicros))
            let extended = quantity * share
            totalAmount += extended
            totalUnits += quantity
            let key = row.country + "\t" + row.currency
            summary[key, default: (0, 0)].units += quantity
            summary[key, default: (0, 0)].amount += extended
            lines.append([period.startText, period.endText, "", "", plan.appleProductId, String(quantity),
                          ReportDecimal.format(share), ReportDecimal.format(extended), row.currency, row.isReturn ? "R" : "S",
                          String(products.appleIdentifier(row.plan)), ReportProducts.developer, plan.name, "", "", "IAY", "",
                          row.country, "", "", ReportDecimal.format(row.priceMicros), row.currency].joined(separator: "\t"))
        }
        lines.append("Total_Rows\t\(rows.count)")
        lines.append("Total_Amount\t\(ReportDecimal.format(totalAmount))")
        lines.append("Total_Units\t\(totalUnits)")
        if consolidated {
            lines.append("")
            lines.append("Country Of Sale\tPartner Share Currency\tQuantity\tExtended Partner Share")
            for key in summary.keys.sorted() {
                let value = summary[key] ?? (0, 0)
                lines.append("\(key)\t\(value.units)\t\(ReportDecimal.format(value.amount))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

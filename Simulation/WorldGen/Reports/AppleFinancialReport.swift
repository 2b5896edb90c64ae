import SeededRandom

/// Apple Financial Reports (FINANCIAL): one tab-separated file per fiscal period and region, named
/// `<vendor>_<MMYY>_<region>.txt`, plus the consolidated ZZ file with its per-country summary, shaped like
/// the real files: rows in no particular order (a return can precede its sales), `Total_Units` counting
/// sale units only, `Total_Amount` without decimals in zero-decimal currencies, offer-code redemptions as `S` rows with
/// Promo Code `CR` and 0.00 amounts.
struct AppleFinancialReport {
    let products: ReportProducts
    let vendor: String
    let seed: UInt64
    /// Units by aggregated row, per fiscal period (filled by `add`).
    private(set) var periods: [AppleFiscalPeriod: [Row: Int64]] = [:]

    init(products: ReportProducts, vendor: String, seed: UInt64) {
        self.products = products
        self.vendor = vendor
        self.seed = seed
    }

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
        /// `CR` on an offer-code redemption (price 0), else empty.
        var promoCode = ""

        static func < (a: Row, b: Row) -> Bool {
            (a.currency, a.plan, a.country, a.isReturn ? 1 : 0, a.priceMicros, a.promoCode)
                < (b.currency, b.plan, b.country, b.isReturn ? 1 : 0, b.priceMicros, b.promoCode)
        }
    }

    /// Adds entries (the ledger in any number of calls).
    mutating func add(_ entries: [ReportEntry]) {
        for entry in entries where entry.isInFinancialReport {
            let isReturn = entry.kind == .refund
            let row = Row(plan: entry.plan, country: entry.country, currency: entry.currency,
                          priceMicros: isReturn ? -entry.amountMicros : entry.amountMicros, isReturn: isReturn,
                          promoCode: entry.isOfferCode ? "CR" : "")
            periods[AppleFiscalPeriod.containing(ms: entry.atMs), default: [:]][row, default: 0] += isReturn ? -1 : 1
        }
    }

    /// The files of every entry added, keyed by path under `reports/` (`apple/finance/<vendor>_<MMYY>_<region>.txt`).
    func files() -> [String: String] {
        var result: [String: String] = [:]
        for (period, rows) in periods {
            let regions = Dictionary(grouping: rows.keys, by: { ReportProducts.appleRegion($0.currency) })
            for (region, keys) in regions {
                result["apple/finance/\(vendor)_\(period.fileMMYY)_\(region).txt"] =
                    render(period, shuffled(keys, period, region).map { ($0, rows[$0] ?? 0) }, consolidated: false)
            }
            result["apple/finance/\(vendor)_\(period.fileMMYY)_ZZ.txt"] =
                render(period, shuffled(Array(rows.keys), period, "ZZ").map { ($0, rows[$0] ?? 0) }, consolidated: true)
        }
        return result
    }

    /// The rows in a deterministic, unsorted order (real files are not sorted; returns can come first).
    func shuffled(_ keys: [Row], _ period: AppleFiscalPeriod, _ region: String) -> [Row] {
        var salt: UInt64 = UInt64(period.fiscalYear * 100 + period.period)
        for byte in region.utf8 { salt = salt &* 131 &+ UInt64(byte) }
        var rng = SplitMix64(seed: seed, salt: 0x4649_4E00 ^ salt)
        var result = keys.sorted()
        guard result.count > 1 else { return result }
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(index, Int(rng.next() % UInt64(index + 1)))
        }
        return result
    }

    /// `Total_Amount` as Apple writes it: without decimals in zero-decimal currencies (a real JPY file: `179`).
    static func totalText(_ micros: Int64, currency: String?) -> String {
        guard let currency, ReportProducts.zeroDecimalCurrencies.contains(currency), micros % 1_000_000 == 0 else {
            return ReportDecimal.format(micros)
        }
        return String(micros / 1_000_000)
    }

    func render(_ period: AppleFiscalPeriod, _ rows: [(Row, Int64)], consolidated: Bool) -> String {
        var lines = [Self.columns.joined(separator: "\t")]
        var totalAmount: Int64 = 0, totalUnits: Int64 = 0
        var summary: [String: (units: Int64, amount: Int64)] = [:]
        for (row, quantity) in rows {
            let plan = products.catalogue.plans[row.plan]
            let share = ReportProducts.appleProceeds(abs(row.priceMicros), currency: row.currency)
            let extended = quantity * share
            totalAmount += extended
            totalUnits += max(0, quantity)
            let key = row.country + "\t" + row.currency
            summary[key, default: (0, 0)].units += quantity
            summary[key, default: (0, 0)].amount += extended
            lines.append([period.startText, period.endText, "", "", plan.appleProductId, String(quantity),
                          ReportDecimal.format(share), ReportDecimal.format(extended), row.currency, row.isReturn ? "R" : "S",
                          String(products.appleIdentifier(row.plan)), ReportProducts.developer, plan.name, "", "", "IAY", "",
                          row.country, "", row.promoCode, ReportDecimal.format(row.priceMicros), row.currency].joined(separator: "\t"))
        }
        lines.append("Total_Rows\t\(rows.count)")
        let currencies = Set(rows.map(\.0.currency))
        lines.append("Total_Amount\t\(Self.totalText(totalAmount, currency: consolidated || currencies.count != 1 ? nil : currencies.first))")
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

import Archive

/// Google Play estimated sales reports: per Pacific month, a zip holding one CSV, one `Charged` row per
/// order and a second `Refund` row for a refunded order (amounts as charged; the refund row's sign is UNCONFIRMED).
struct GoogleSalesReport {
    let products: ReportProducts
    /// CSV rows (without the header) by Pacific month `YYYYMM`, in ledger order (filled by `add`).
    private var monthly = MonthlyRows(prefix: "sales-")

    init(products: ReportProducts) { self.products = products }

    static let columns = ["Order Number", "Order Charged Date", "Order Charged Timestamp", "Financial Status", "Device Model",
                          "Product Title", "Product ID", "Product Type", "SKU ID", "Currency of Sale", "Item Price",
                          "Taxes Collected", "Charged Amount", "City of Buyer", "State of Buyer", "Postal Code of Buyer",
                          "Country of Buyer", "Base Plan ID", "Offer ID", "Group ID", "First USD 1M Eligible", "Promotion ID",
                          "Coupon Value", "Discount Rate", "Featured Product ID"]

    /// Adds entries (the ledger in any number of calls).
    mutating func add(_ entries: [ReportEntry]) {
        for entry in entries where !entry.isApple && !entry.isFree {
            monthly.append(row(entry), month: ReportCalendar.pacificMonth(entry.atMs))
        }
    }

    /// Moves the rows added so far to `spill` (appended per month), keeping memory flat for large worlds.
    mutating func spill(to spill: ReportSpill) throws { try monthly.spill(to: spill) }

    /// The zips of every entry added (with the rows moved to `spill` first), keyed by path under `reports/`
    /// (`google/sales/salesreport_YYYYMM.zip`).
    func files(spill: ReportSpill? = nil) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for (month, rows) in try monthly.all(spill: spill) {
            result["google/sales/salesreport_\(month).zip"] =
                try ZipArchive.make([("salesreport_\(month).csv", Array(ReportCSV.line(Self.columns).utf8) + rows)],
                                    mtime: ReportCSV.monthMtime(month))
        }
        return result
    }

    func row(_ entry: ReportEntry) -> String {
        let plan = products.catalogue.plans[entry.plan]
        let (tax, _) = ReportProducts.googleSplit(entry.amountMicros, country: entry.country)
        return ReportCSV.line([entry.orderId ?? "", ReportCalendar.isoDate(ReportCalendar.pacificDay(entry.atMs)),
                               String(WorldClock.floorDiv(entry.atMs, 1_000)), entry.kind == .refund ? "Refund" : "Charged", "",
                               plan.name, products.catalogue.packageName, "subscription", plan.googleProductId, entry.currency,
                               ReportDecimal.format(entry.amountMicros - tax), ReportDecimal.format(tax),
                               ReportDecimal.format(entry.amountMicros), "", "", "", entry.country, plan.googleBasePlanId, "", "",
                               "Yes", "", "", "", ""])
    }
}

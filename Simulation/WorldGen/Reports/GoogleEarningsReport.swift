import Archive

/// Google Play monthly earnings reports: per Pacific month, a zip holding one CSV with Charge / Google fee /
/// Tax rows (and their refunds) per order, amounts in buyer and merchant currency, Pacific times with zone suffix.
struct GoogleEarningsReport {
    let products: ReportProducts
    let developerId: String
    /// CSV rows (without the header) by Pacific month `YYYYMM`, in ledger order (filled by `add`).
    private var monthly = MonthlyRows(prefix: "earnings-")

    init(products: ReportProducts, developerId: String) {
        self.products = products
        self.developerId = developerId
    }

    static let columns = ["Description", "Transaction Date", "Transaction Time", "Tax Type", "Transaction Type", "Refund Type",
                          "Product Title", "Product id", "Product Type", "Sku Id", "Hardware", "Buyer Country", "Buyer State",
                          "Buyer Postal Code", "Buyer Currency", "Amount (Buyer Currency)", "Currency Conversion Rate",
                          "Merchant Currency", "Amount (Merchant Currency)", "Base Plan ID", "Offer ID", "Group ID",
                          "First USD 1M Eligible", "Service Fee %", "Fee Description", "Promotion ID"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Adds entries (the ledger in any number of calls).
    mutating func add(_ entries: [ReportEntry]) {
        for entry in entries where !entry.isApple && !entry.isFree {
            for line in rows(entry) { monthly.append(line, month: ReportCalendar.pacificMonth(entry.atMs)) }
        }
    }

    /// Moves the rows added so far to `spill` (appended per month), keeping memory flat for large worlds.
    mutating func spill(to spill: ReportSpill) throws { try monthly.spill(to: spill) }

    /// The zips of every entry added (with the rows moved to `spill` first), keyed by path under `reports/`
    /// (`google/earnings/earnings_YYYYMM_<developer>-0.zip`).
    func files(spill: ReportSpill? = nil) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for (month, rows) in try monthly.all(spill: spill) {
            let csv = Array(ReportCSV.line(Self.columns).utf8) + rows
            let zip = try ZipArchive.make([("PlayApps_\(month).csv", csv)], mtime: ReportCSV.monthMtime(month))
            result["google/earnings/earnings_\(month)_\(developerId)-0.zip"] = zip
        }
        return result
    }

    /// The three rows (Charge, Google fee, Tax; or their refunds) of one entry.
    func rows(_ entry: ReportEntry) -> [String] {
        let plan = products.catalogue.plans[entry.plan]
        let refund = entry.kind == .refund
        let sign: Int64 = refund ? -1 : 1
        let (tax, fee) = ReportProducts.googleSplit(entry.amountMicros, country: entry.country)
        let rate = ReportProducts.usdRateMicros(entry.currency)
        let (date, time) = Self.dateTime(entry.atMs)
        func row(_ type: String, _ amount: Int64, taxType: String = "", feePercent: String = "", feeText: String = "") -> String {
            let merchant = ReportDecimal.cents(ReportDecimal.roundDiv(amount * rate, 1_000_000))
            return ReportCSV.line([entry.orderId ?? "", date, time, taxType, type, refund ? "Full refund" : "", plan.name,
                                   products.catalogue.packageName, "1", plan.googleProductId, "", entry.country, "", "",
                                   entry.currency, ReportDecimal.format(amount), ReportDecimal.format(rate, places: 6),
                                   ReportProducts.merchantCurrency, ReportDecimal.format(merchant), plan.googleBasePlanId, "", "",
                                   "Yes", feePercent, feeText, ""])
        }
        var result = [row(refund ? "Charge refund" : "Charge", sign * entry.amountMicros),
                      row(refund ? "Google fee refund" : "Google fee", -sign * fee, feePercent: String(ReportProducts.googleFeePercent),
                          feeText: "Subscription")]
        if tax > 0 { result.append(row(refund ? "Tax refund" : "Tax", -sign * tax, taxType: "VAT")) }
        return result
    }

    /// `Nov 1, 2019` and `3:29:44 AM PDT` of an instant, in US Pacific time.
    static func dateTime(_ ms: Int64) -> (String, String) {
        let local = ReportCalendar.pacific(ms)
        let dayNumber = WorldClock.floorDiv(local, ReportCalendar.day)
        let date = WorldClock.civil(dayNumber)
        let seconds = (local - dayNumber * ReportCalendar.day) / 1_000
        let hour = seconds / 3_600
        let clock = "\(hour % 12 == 0 ? 12 : hour % 12):\(ReportCalendar.pad(seconds / 60 % 60, 2)):\(ReportCalendar.pad(seconds % 60, 2))"
        return ("\(months[Int(date.month) - 1]) \(date.day), \(date.year)",
                "\(clock) \(hour < 12 ? "AM" : "PM") \(ReportCalendar.isPacificDaylight(ms) ? "PDT" : "PST")")
    }
}

import Archive
import SeededRandom

/// Google Play monthly earnings reports: per Pacific month, a zip holding one CSV with Charge / Google fee /
/// Tax rows (and their refunds and rebills) per order, amounts in buyer and merchant currency with the conversion
/// rate, Pacific times with zone suffix, and the buyer fields Google fills (device, state, postal code, group).
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

    /// Countries whose tax Google writes as two `Tax` rows (a split such as central and state GST).
    static let splitTaxCountries: Set<String> = ["IN", "JP"]
    /// One charge in `rebillEvery` (by order ID hash) is reversed and billed again in the same month.
    static let rebillEvery: UInt64 = 40

    /// A stable hash of an order ID (buyer fields and rebills are drawn from it).
    func orderHash(_ order: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ (UInt64(developerId) ?? 0)
        for byte in order.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return SplitMix64.hash(hash)
    }

    /// The `Group ID` Google writes for this developer's subscriptions (19 digits).
    var groupId: String { String(SplitMix64.hash(UInt64(developerId) ?? 0) % 9_000_000_000_000_000_000 + 1_000_000_000_000_000_000) }

    /// True when the charge of `entry` carries a rebill set (its rows reversed, then billed again).
    func isRebilled(_ entry: ReportEntry) -> Bool {
        entry.kind == .charge && orderHash(entry.orderId ?? "") % Self.rebillEvery == 7
    }

    /// The rows of one entry: Charge, Google fee and one or two Tax rows (or their refunds with Refund Type `Full`, or
    /// `Partial` for a partial refund, whose rows split the part refunded as a charge of that amount would be split);
    /// for a rebilled charge also the reversal (refund rows with an empty Refund Type) and the `… rebill` rows.
    func rows(_ entry: ReportEntry) -> [String] {
        let plan = products.catalogue.plans[entry.plan]
        let refund = entry.kind == .refund
        let sign: Int64 = refund ? -1 : 1
        let (tax, fee) = ReportProducts.googleSplit(entry.amountMicros, country: entry.country)
        let rate = ReportProducts.usdRateMicros(entry.currency)
        let (date, time) = Self.dateTime(entry.atMs)
        let hash = orderHash(entry.orderId ?? "")
        let places = ReportProducts.googleBuyerPlaces[entry.country] ?? [("", "")]
        let place = places[Int(hash % UInt64(places.count))]
        let hardware = ReportProducts.googleHardware[Int((hash >> 8) % UInt64(ReportProducts.googleHardware.count))]
        let title = "\(plan.name) (\(ReportProducts.appName))"
        func row(_ type: String, _ amount: Int64, refundType: String, taxType: String = "", feePercent: String = "",
                 feeText: String = "") -> String {
            let merchant = ReportDecimal.cents(ReportDecimal.roundDiv(amount * rate, 1_000_000))
            return ReportCSV.line([entry.orderId ?? "", date, time, taxType, type, refundType, title,
                                   products.catalogue.packageName, "1", plan.googleProductId, hardware, entry.country, place.0,
                                   place.1, entry.currency, ReportDecimal.format(amount), ReportDecimal.format(rate, places: 6),
                                   ReportProducts.merchantCurrency, ReportDecimal.format(merchant), plan.googleBasePlanId, "", groupId,
                                   "Yes", feePercent, feeText, ""])
        }
        var taxes: [(String, Int64)] = []
        if tax > 0 {
            if Self.splitTaxCountries.contains(entry.country) {
                let first = ReportDecimal.cents(tax / 2)
                taxes = [("GST", first), ("GST", tax - first)]
            } else {
                taxes = [("VAT", tax)]
            }
        }
        /// One set of rows: `suffix` "" (a charge), " refund" or " rebill"; `direction` +1 moves money like a charge.
        func set(_ suffix: String, _ direction: Int64, refundType: String) -> [String] {
            var lines = [row("Charge" + suffix, direction * entry.amountMicros, refundType: refundType),
                         row("Google fee" + suffix, -direction * fee, refundType: refundType,
                             feePercent: String(ReportProducts.googleFeePercent), feeText: "SUBSCRIPTIONS")]
            for (taxType, amount) in taxes { lines.append(row("Tax" + suffix, -direction * amount, refundType: refundType, taxType: taxType)) }
            return lines
        }
        if refund { return set(" refund", -1, refundType: entry.isPartialRefund ? "Partial" : "Full") }
        var result = set("", sign, refundType: "")
        if isRebilled(entry) { result += set(" refund", -1, refundType: "") + set(" rebill", 1, refundType: "") }
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

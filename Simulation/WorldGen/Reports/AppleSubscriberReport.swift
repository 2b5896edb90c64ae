import SeededRandom

/// Apple Subscriber reports (SUBSCRIBER, DETAILED, DAILY, 1_3): one tab-separated file per Pacific day
/// with events, one row per paid charge, free-trial start or refund, named `Subscriber_<vendor>_<YYYYMMDD>.txt`.
/// Like the real files: blank cells hold a single space, `Purchase Date` is filled on refund rows only, and
/// the last line has no line end.
struct AppleSubscriberReport {
    let products: ReportProducts
    let vendor: String
    let seed: UInt64
    /// Rows (instant, text) by Pacific day (filled by `add`).
    private var days: [Int64: [(Int64, String)]] = [:]

    init(products: ReportProducts, vendor: String, seed: UInt64) {
        self.products = products
        self.vendor = vendor
        self.seed = seed
    }

    static let columns = ["Event Date", "App Name", "App Apple ID", "Subscription Name", "Subscription Apple ID",
                          "Subscription Group ID", "Standard Subscription Duration", "Subscription Offer Name",
                          "Promotional Offer ID", "Subscription Offer Type", "Subscription Offer Duration",
                          "Marketing Opt-In Duration", "Customer Price", "Customer Currency", "Developer Proceeds",
                          "Proceeds Currency", "Preserved Pricing", "Proceeds Reason", "Client", "Device", "Country",
                          "Subscriber ID", "Subscriber ID Reset", "Refund", "Purchase Date", "Units"]

    /// Adds entries (the ledger in any number of calls).
    mutating func add(_ entries: [ReportEntry]) {
        for entry in entries where entry.isApple {
            days[ReportCalendar.pacificDay(entry.atMs), default: []].append((entry.atMs, row(entry)))
        }
    }

    /// The files of every entry added, keyed by path under `reports/` (`apple/sales/Subscriber_<vendor>_<YYYYMMDD>.txt`).
    func files() -> [String: String] {
        var result: [String: String] = [:]
        for (day, rows) in days {
            let sorted = rows.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1)
            let compact = String(ReportCalendar.isoDate(day).filter { $0 != "-" })
            result["apple/sales/Subscriber_\(vendor)_\(compact).txt"] =
                ([Self.columns.joined(separator: "\t")] + sorted).joined(separator: "\n")
        }
        return result
    }

    func row(_ entry: ReportEntry) -> String {
        let catalogue = products.catalogue
        let plan = catalogue.plans[entry.plan]
        let sign: Int64 = entry.kind == .refund ? -1 : 1
        let proceeds = ReportProducts.appleProceeds(entry.amountMicros, currency: entry.currency)
        let refund = entry.kind == .refund
        return [ReportCalendar.isoDate(ReportCalendar.pacificDay(entry.atMs)), ReportProducts.appName, String(catalogue.appAppleId),
                plan.name, String(products.appleIdentifier(entry.plan)), catalogue.subscriptionGroupIdentifier,
                products.duration(entry.plan), entry.isOfferCode ? OfferCodeRedemption.offerIdentifier : "", "",
                entry.isFree ? "Free Trial" : "", entry.isFree ? "1 Week" : "", "",
                ReportDecimal.format(sign * entry.amountMicros), entry.currency, ReportDecimal.format(sign * proceeds), entry.currency,
                "", "", "", "iPhone", entry.country, subscriberId(entry.subscriptionId), "", refund ? "Yes" : "",
                refund ? ReportCalendar.isoDate(ReportCalendar.pacificDay(entry.purchaseAtMs)) : "", "1"]
            .map { $0.isEmpty ? " " : $0 }.joined(separator: "\t")
    }

    /// An anonymised, stable per-app subscriber ID (not a transaction ID).
    func subscriberId(_ subscriptionId: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in subscriptionId.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return String(SplitMix64.hash(hash) % 9_000_000_000_000_000 + 1_000_000_000_000_000)
    }
}

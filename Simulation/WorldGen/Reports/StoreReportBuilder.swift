import Crypto
import StoreTruth

/// Builds a world's store reports from its subscriptions, whole or batch by batch (in subscription order):
/// both give the same entries, discrepancies and files.
struct StoreReportBuilder {
    let catalogue: WorldCatalogue
    let seed: UInt64
    private let products: ProductLookup
    private var injector: ReportInjector
    private var discrepancies: [ReportDiscrepancy] = []
    private var financial: AppleFinancialReport
    private var subscriber: AppleSubscriberReport
    private var earnings: GoogleEarningsReport
    private var sales: GoogleSalesReport
    /// Where the Google report rows wait between batches (nil: in memory).
    var spill: ReportSpill?

    init(catalogue: WorldCatalogue, seed: UInt64, asOfMs: Int64, shares: ReportDiscrepancyShares) {
        self.catalogue = catalogue
        self.seed = seed
        products = ProductLookup(catalogue)
        injector = ReportInjector(catalogue: catalogue, seed: seed, asOfMs: asOfMs, shares: shares)
        let reportProducts = ReportProducts(catalogue: catalogue)
        let vendor = StoreReports.appleVendorNumber(seed: seed)
        financial = AppleFinancialReport(products: reportProducts, vendor: vendor, seed: seed)
        subscriber = AppleSubscriberReport(products: reportProducts, vendor: vendor, seed: seed)
        earnings = GoogleEarningsReport(products: reportProducts, developerId: StoreReports.googleDeveloperId(seed: seed))
        sales = GoogleSalesReport(products: reportProducts)
    }

    /// Adds the next subscriptions with their own Apple notifications and Google voided purchases (the whole
    /// world's truth also works); returns the transaction keys that must be missing from the database.
    mutating func add(_ subscriptions: [WorldSubscription], notifications: [AppleNotificationTruth],
                      voided: [JSONValue]) throws -> Set<String> {
        let refunds = ReportStoreRefunds(subscriptions, notifications: notifications, voided: voided)
        let (added, found) = injector.apply(ReportLedger.entries(subscriptions, products: products, storeRefunds: refunds))
        financial.add(added)
        subscriber.add(added)
        earnings.add(added)
        sales.add(added)
        if let spill {
            try earnings.spill(to: spill)
            try sales.spill(to: spill)
        }
        discrepancies += found
        return Set(found.filter { $0.kind == .missingInDatabase }.map(\.transactionKey))
    }

    /// Adds one batch of subscriptions, taking the notifications and voided purchases from the batch itself.
    mutating func add(batch subscriptions: [WorldSubscription]) throws -> Set<String> {
        try add(subscriptions, notifications: subscriptions.flatMap(\.appleNotifications),
            voided: World.sortedVoided(subscriptions.flatMap(\.googleVoided)))
    }

    /// Renders every report file.
    func finish() throws -> StoreReportSet {
        var files: [String: [UInt8]] = [:]
        for (path, text) in financial.files() { files[path] = Array(text.utf8) }
        for (path, text) in subscriber.files() { files[path] = Array(text.utf8) }
        for (path, text) in ApplePaymentsReport.files(financial) { files[path] = Array(text.utf8) }
        files.merge(try earnings.files(spill: spill)) { _, new in new }
        files.merge(try sales.files(spill: spill)) { _, new in new }
        return StoreReportSet(files: files, discrepancies: discrepancies, googleDeveloperId: earnings.developerId,
                              appleVendorNumber: financial.vendor)
    }
}

/// One compared unit and its outcome: a Google order's charge or refund, or an Apple report cell.
///
/// Amounts are micros of `currency`; `variance` is report gross − database gross, so the items of a run sum to
/// the run's variance per currency.
public struct ReconciliationItem: Sendable, Hashable {
    public var category: ReconciliationCategory
    /// Google order ID; Apple `product|country|currency|price micros|S or R`.
    public var grainKey: String
    /// `charge` / `refund` (Google), `sale` / `return` (Apple).
    public var side: String
    public var productId: String
    /// ISO 3166 alpha-2.
    public var country: String
    public var currency: String
    /// The database's currency when it differs or the report lacks the unit.
    public var databaseCurrency: String?
    public var reportUnits: Int64
    public var databaseUnits: Int64
    public var reportGross: Int64
    public var databaseGross: Int64
    /// The store's fee (negative), Apple: the commission and the taxes Apple remits together.
    public var storeFee: Int64
    /// Taxes (negative); 0 for Apple, whose financial report does not split them from the commission.
    public var tax: Int64
    /// What the store pays: gross + fee + tax.
    public var net: Int64
    /// True for a row of an earlier closed period recorded after its close.
    public var priorPeriodAdjustment = false
    /// The closed period a prior-period adjustment belongs to.
    public var adjustmentPeriod: String?
    /// A short explanation (the adjacent period of a timing item, the database key, …).
    public var detail = ""

    /// Creates an item; the variance is derived from the gross amounts.
    public init(category: ReconciliationCategory, grainKey: String, side: String, productId: String, country: String,
                currency: String, databaseCurrency: String? = nil, reportUnits: Int64, databaseUnits: Int64,
                reportGross: Int64, databaseGross: Int64, storeFee: Int64 = 0, tax: Int64 = 0, detail: String = "") {
        self.category = category
        self.grainKey = grainKey
        self.side = side
        self.productId = productId
        self.country = country
        self.currency = currency
        self.databaseCurrency = databaseCurrency
        self.reportUnits = reportUnits
        self.databaseUnits = databaseUnits
        self.reportGross = reportGross
        self.databaseGross = databaseGross
        self.storeFee = storeFee
        self.tax = tax
        self.net = reportGross + storeFee + tax
        self.detail = detail
    }

    /// Report gross − database gross. With a currency mismatch the two are in different currencies: the variance is
    /// then booked per currency by `ReconciliationTotals`.
    public var variance: Int64 { reportGross - databaseGross }
}

/// Apple's finest financial grain: product × country × currency × customer price × sale or return.
public struct AppleCell: Sendable, Hashable, Comparable {
    public var product: String
    /// ISO 3166 alpha-2.
    public var country: String
    public var currency: String
    /// The customer price of one unit; negative for a return.
    public var price: Int64

    /// Creates a cell.
    public init(product: String, country: String, currency: String, price: Int64) {
        self.product = product
        self.country = country
        self.currency = currency
        self.price = price
    }

    /// `sale` or `return`.
    public var side: String { price < 0 ? "return" : "sale" }
    /// The grain key written with the item.
    public var key: String { "\(product)|\(country)|\(currency)|\(price)|\(price < 0 ? "R" : "S")" }

    public static func < (a: AppleCell, b: AppleCell) -> Bool {
        (a.product, a.country, a.currency, a.price) < (b.product, b.country, b.currency, b.price)
    }
}

/// What one period holds in one cell: report units and proceeds, and the database's rows counted: paid, test, and
/// paid within the timing window of the period's start and of its end (the window `AppleSource` read them with).
public struct AppleCellSides: Sendable, Hashable {
    /// Report units (positive for sales and returns alike).
    public var reportUnits: Int64 = 0
    /// Report Extended Partner Share, signed.
    public var reportNet: Int64 = 0
    /// Database units that are not test purchases.
    public var paidUnits: Int64 = 0
    /// Database test purchases.
    public var testUnits: Int64 = 0
    /// Paid database units within the timing window after the period's start.
    public var paidNearStart: Int64 = 0
    /// Paid database units within the timing window before the period's end.
    public var paidNearEnd: Int64 = 0

    /// An empty cell.
    public init() {}

    /// Database units, paid and test.
    public var databaseUnits: Int64 { paidUnits + testUnits }

    /// Counts one database row at `at` (UTC epoch seconds) of the period `start..<end`, with the timing window
    /// `windowSeconds`.
    public mutating func addDatabaseRow(at: Int64, isTest: Bool, start: Int64, end: Int64, windowSeconds: Int64) {
        guard !isTest else {
            testUnits += 1
            return
        }
        paidUnits += 1
        if at - start <= windowSeconds { paidNearStart += 1 }
        if end - at <= windowSeconds { paidNearEnd += 1 }
    }
}

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

/// What one period holds in one cell: report units and proceeds, database rows (instants, test flags).
public struct AppleCellSides: Sendable, Hashable {
    /// Report units (positive for sales and returns alike).
    public var reportUnits: Int64 = 0
    /// Report Extended Partner Share, signed.
    public var reportNet: Int64 = 0
    /// Database rows: UTC epoch seconds and whether the row is a test purchase.
    public var database: [(at: Int64, isTest: Bool)] = []

    /// An empty cell.
    public init() {}

    public static func == (a: AppleCellSides, b: AppleCellSides) -> Bool {
        a.reportUnits == b.reportUnits && a.reportNet == b.reportNet && a.database.elementsEqual(b.database, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(reportUnits)
        hasher.combine(reportNet)
        hasher.combine(database.count)
    }

    /// Database units that are not test purchases.
    public var paidUnits: Int64 { Int64(database.filter { !$0.isTest }.count) }
    /// Database test purchases.
    public var testUnits: Int64 { Int64(database.filter(\.isTest).count) }
}

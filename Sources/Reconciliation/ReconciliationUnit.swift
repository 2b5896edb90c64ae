/// One side of a Google unit as a report or the database has it: the rows of one order's charge or refund.
public struct UnitSide: Sendable, Hashable {
    /// Sum of the gross amounts (Charge / Charge refund / rebills; the database's amounts).
    public var gross: Int64 = 0
    /// Sum of the store's fee rows (report only).
    public var fee: Int64 = 0
    /// Sum of the tax rows (report only).
    public var tax: Int64 = 0
    /// How many charge (or refund) rows carry the unit: Charge / Charge refund rows, database rows.
    public var count: Int64 = 0
    /// The currency of the gross rows (the first seen).
    public var currency = ""
    public var productId = ""
    public var country = ""
    /// The earliest instant (UTC epoch seconds).
    public var at: Int64 = .max
    /// True when every database row of the unit is a test purchase.
    public var isTest = true
    /// The report's `Refund Type` of a refund unit (`Full` or `Partial`; empty for charges, estimated-sales rows and
    /// the database).
    public var refundType = ""
    /// The database keys (for the item's detail).
    public var keys: [String] = []

    /// An empty side.
    public init() {}
}

/// The identity of a Google unit: an order and whether the rows charge or refund it.
public struct UnitKey: Sendable, Hashable, Comparable {
    public var order: String
    /// `charge` or `refund`.
    public var side: String

    /// Creates a key.
    public init(order: String, side: String) {
        self.order = order
        self.side = side
    }

    public static func < (a: UnitKey, b: UnitKey) -> Bool { (a.order, a.side) < (b.order, b.side) }
}

/// Look Up Order ID: 0 valid, 1 invalid, and the order's signed transactions.
public struct OrderLookupResponse: Sendable, Decodable {
    public var status: Int?
    public var signedTransactions: [String]?
}

/// One page of Get Transaction History v2 or Get Refund History.
public struct HistoryResponse: Sendable, Decodable {
    public var revision: String?
    public var hasMore: Bool?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var environment: String?
    public var signedTransactions: [String]?
}

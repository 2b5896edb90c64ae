/// The fields of a Google earnings row that reconciliation reads: the order, what kind of money movement it is,
/// the product, the buyer's country and currency, the amount in buyer currency and the instant. What
/// `GoogleEarningsScanner` emits, so that three million rows do not become three million full rows of strings.
public struct GoogleEarningsEntry: Sendable, Equatable {
    /// Line in the CSV (the first line of the record).
    public var line: Int
    /// `Description`: the order ID.
    public var orderID: String
    /// `Transaction Type`.
    public var transactionType: GoogleTransactionType
    /// `Refund Type`, nil when empty.
    public var refundType: GoogleRefundType?
    /// `Product id` (`Package ID`).
    public var productID: String
    /// `Buyer Country`.
    public var buyerCountry: String
    /// `Buyer Currency`.
    public var buyerCurrency: String
    /// `Amount (Buyer Currency)`, signed micros.
    public var amountBuyerMicros: Int64
    /// `Transaction Date` + `Transaction Time` as epoch seconds (UTC).
    public var transactionEpochSeconds: Int64

    /// The entry of a fully parsed row.
    public init(_ row: GoogleEarningsRow) {
        self.init(line: row.line, orderID: row.orderID, transactionType: row.transactionType, refundType: row.refundType,
                  productID: row.productID, buyerCountry: row.buyerCountry, buyerCurrency: row.buyerCurrency,
                  amountBuyerMicros: row.amountBuyerMicros, transactionEpochSeconds: row.transactionEpochSeconds)
    }

    /// An entry from its fields.
    public init(line: Int, orderID: String, transactionType: GoogleTransactionType, refundType: GoogleRefundType?,
                productID: String, buyerCountry: String, buyerCurrency: String, amountBuyerMicros: Int64,
                transactionEpochSeconds: Int64) {
        self.line = line
        self.orderID = orderID
        self.transactionType = transactionType
        self.refundType = refundType
        self.productID = productID
        self.buyerCountry = buyerCountry
        self.buyerCurrency = buyerCurrency
        self.amountBuyerMicros = amountBuyerMicros
        self.transactionEpochSeconds = transactionEpochSeconds
    }
}

/// The fields of a Google earnings row that reconciliation reads — the order, what kind of money movement it is, the
/// product, the buyer's country and currency, the amount in buyer currency and the instant — its texts lent by the
/// reader (a staged row of a binary COPY): valid only inside the call that receives them (copy what must outlive
/// it). Three million rows are read without a string or an allocation per row.
public struct GoogleEarningsFields {
    /// Line in the CSV (the first line of the record).
    public var line: Int
    /// `Description`: the order ID's UTF-8 bytes.
    public var orderID: UnsafeRawBufferPointer
    /// `Transaction Type`.
    public var transactionType: GoogleTransactionType
    /// `Refund Type`, nil when empty.
    public var refundType: GoogleRefundType?
    /// `Product id` (`Package ID`), UTF-8.
    public var productID: UnsafeRawBufferPointer
    /// `Buyer Country`, UTF-8.
    public var buyerCountry: UnsafeRawBufferPointer
    /// `Buyer Currency`, UTF-8.
    public var buyerCurrency: UnsafeRawBufferPointer
    /// `Amount (Buyer Currency)`, signed micros.
    public var amountBuyerMicros: Int64
    /// `Transaction Date` + `Transaction Time` as epoch seconds (UTC).
    public var transactionEpochSeconds: Int64

    /// Fields from their parts (texts lent by the caller).
    public init(line: Int, orderID: UnsafeRawBufferPointer, transactionType: GoogleTransactionType, refundType: GoogleRefundType?,
                productID: UnsafeRawBufferPointer, buyerCountry: UnsafeRawBufferPointer, buyerCurrency: UnsafeRawBufferPointer,
                amountBuyerMicros: Int64, transactionEpochSeconds: Int64) {
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

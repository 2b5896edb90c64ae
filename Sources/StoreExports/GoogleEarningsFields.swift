/// The fields of one Google earnings row as `GoogleEarningsScanner` reads them, its texts lent from the scanner's
/// bytes: valid only inside the call that receives them (copy what must outlive it). Three million rows are read
/// without a string or an allocation per row; `GoogleEarningsEntry` is the same row with texts of its own.
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

extension GoogleEarningsEntry {
    /// The entry of a row's lent fields, with texts of its own.
    public init(_ fields: GoogleEarningsFields) {
        func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }
        self.init(line: fields.line, orderID: text(fields.orderID), transactionType: fields.transactionType,
                  refundType: fields.refundType, productID: text(fields.productID), buyerCountry: text(fields.buyerCountry),
                  buyerCurrency: text(fields.buyerCurrency), amountBuyerMicros: fields.amountBuyerMicros,
                  transactionEpochSeconds: fields.transactionEpochSeconds)
    }

    /// Calls `body` with this entry's fields, its texts lent for the call.
    public func withFields<Result>(_ body: (GoogleEarningsFields) throws -> Result) rethrows -> Result {
        var order = orderID, product = productID, country = buyerCountry, currency = buyerCurrency
        return try order.withUTF8 { order in
            try product.withUTF8 { product in
                try country.withUTF8 { country in
                    try currency.withUTF8 { currency in
                        try body(GoogleEarningsFields(
                            line: line, orderID: UnsafeRawBufferPointer(order), transactionType: transactionType,
                            refundType: refundType, productID: UnsafeRawBufferPointer(product),
                            buyerCountry: UnsafeRawBufferPointer(country), buyerCurrency: UnsafeRawBufferPointer(currency),
                            amountBuyerMicros: amountBuyerMicros, transactionEpochSeconds: transactionEpochSeconds))
                    }
                }
            }
        }
    }
}

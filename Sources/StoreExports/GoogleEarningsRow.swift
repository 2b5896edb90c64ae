/// One row of a Google Play earnings report: one money movement (charge, fee, tax, refund or rebill)
/// of one order. Several rows share an order ID.
public struct GoogleEarningsRow: Sendable, Equatable {
    /// Line in the CSV (the first line of the record).
    public let line: Int
    /// `Description`: the order ID (`GPA.…`, renewals `..N`), the join key to BillingTransaction.
    public let orderID: String
    /// `Transaction Date` as a day of the stamp's zone.
    public let transactionDate: CalendarDate
    /// `Transaction Date` + `Transaction Time` as epoch seconds (UTC), honouring the zone suffix.
    public let transactionEpochSeconds: Int64
    /// The zone suffix as written (`PDT`, `PST`, `UTC`), empty when absent (Pacific assumed).
    public let transactionZone: String
    /// `Tax Type`.
    public let taxType: String
    /// `Transaction Type`.
    public let transactionType: GoogleTransactionType
    /// `Refund Type` (`Full` / `Partial`), nil when empty.
    public let refundType: GoogleRefundType?
    /// `Product Title` (app name appended in the buyer's language).
    public let productTitle: String
    /// `Product id` (`Package ID` in some versions): the app's package name.
    public let productID: String
    /// `Product Type` (1 = in-app product, 0 = paid app).
    public let productType: Int64
    /// `Sku Id`: the product / subscription ID.
    public let skuID: String
    /// `Hardware`.
    public let hardware: String
    /// `Buyer Country`.
    public let buyerCountry: String
    /// `Buyer State`.
    public let buyerState: String
    /// `Buyer Postal Code` (`Buyer Postcode`).
    public let buyerPostalCode: String
    /// `Buyer Currency`.
    public let buyerCurrency: String
    /// `Amount (Buyer Currency)`, signed micros.
    public let amountBuyerMicros: Int64
    /// `Currency Conversion Rate` (buyer → merchant), exactly as written.
    public let currencyConversionRate: ExactDecimal
    /// `Merchant Currency`.
    public let merchantCurrency: String
    /// `Amount (Merchant Currency)`, signed micros.
    public let amountMerchantMicros: Int64
    /// `Base Plan ID` (`Base Plan or Purchase Option ID`).
    public let basePlanID: String
    /// `Offer ID`.
    public let offerID: String
    /// `Group ID`.
    public let groupID: String
    /// `First USD 1M Eligible`.
    public let firstUSD1MEligible: String
    /// `Service Fee %`, as written.
    public let serviceFeePercent: String
    /// `Fee Description` (`SUBSCRIPTIONS`, …).
    public let feeDescription: String
    /// `Promotion ID`.
    public let promotionID: String
    /// `Sales Channel`.
    public let salesChannel: String
}

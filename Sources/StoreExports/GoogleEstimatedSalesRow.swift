/// One row of a Google Play estimated sales report: a charge or its refund (a second row with the same
/// order number), in the currency of sale.
public struct GoogleEstimatedSalesRow: Sendable, Equatable {
    /// Line in the CSV.
    public let line: Int
    /// `Order Number` (`GPA.…`, renewals `..N`).
    public let orderNumber: String
    /// `Order Charged Date`.
    public let orderChargedDate: CalendarDate
    /// `Order Charged Timestamp`, epoch seconds.
    public let orderChargedEpochSeconds: Int64
    /// `Financial Status`: `Charged` or `Refund` (any other value is refused by the parser).
    public let financialStatus: String
    /// `Device Model`.
    public let deviceModel: String
    /// `Product Title`.
    public let productTitle: String
    /// `Product ID` (`Package ID`): the app's package name.
    public let productID: String
    /// `Product Type` (`subscription`, `inapp`, …).
    public let productType: String
    /// `SKU ID`: the product / subscription ID.
    public let skuID: String
    /// `Currency of Sale`.
    public let currencyOfSale: String
    /// `Item Price`, micros.
    public let itemPriceMicros: Int64
    /// `Taxes Collected`, micros.
    public let taxesCollectedMicros: Int64
    /// `Charged Amount` = item price + taxes, micros.
    public let chargedAmountMicros: Int64
    /// `City of Buyer`.
    public let cityOfBuyer: String
    /// `State of Buyer`.
    public let stateOfBuyer: String
    /// `Postal Code of Buyer`.
    public let postalCodeOfBuyer: String
    /// `Country of Buyer`.
    public let countryOfBuyer: String
    /// `Base Plan ID` (`Base Plan or Purchase Option ID`).
    public let basePlanID: String
    /// `Offer ID`.
    public let offerID: String
    /// `Group ID`.
    public let groupID: String
    /// `Promotion ID`.
    public let promotionID: String
    /// Other known columns present (`First USD 1M Eligible`, `Coupon Value`, `Discount Rate`, …), by header name.
    public let extra: [String: String]

    /// The `Financial Status` values a file may hold (docs/STORE_REPORTS.md): any other rejects the file at its line,
    /// since a status we do not know cannot be counted as a charge or a refund.
    public static let acceptedFinancialStatuses = ["Charged", "Refund"]

    /// Whether the row is a refund (`Financial Status` = `Refund`).
    public var isRefund: Bool { financialStatus == "Refund" }
}

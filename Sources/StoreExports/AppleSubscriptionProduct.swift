/// The columns Apple's Subscriber and Subscription reports share: the subscription and its offer, its price and
/// proceeds, and where it was bought. Single-space cells are read as empty. The rows of both reports hold one and
/// read its fields as their own (`row.appName`).
public struct AppleSubscriptionProduct: Sendable, Equatable {
    /// `App Name`.
    public let appName: String
    /// `App Apple ID`.
    public let appAppleID: String
    /// `Subscription Name`.
    public let subscriptionName: String
    /// `Subscription Apple ID`.
    public let subscriptionAppleID: String
    /// `Subscription Group ID`.
    public let subscriptionGroupID: String
    /// `Standard Subscription Duration` (`1 Month`, `1 Year`, …).
    public let standardSubscriptionDuration: String
    /// `Subscription Offer Name` (`Promotional Offer Name` in layout 1_3 and earlier).
    public let subscriptionOfferName: String
    /// `Promotional Offer ID` (the promotional offer's reference name, when a row used one).
    public let promotionalOfferID: String
    /// `Customer Price`, micros of `customerCurrency` (negative on Subscriber refunds).
    public let customerPriceMicros: Int64
    /// `Customer Currency`.
    public let customerCurrency: String
    /// `Developer Proceeds`, micros of `proceedsCurrency`.
    public let developerProceedsMicros: Int64
    /// `Proceeds Currency`.
    public let proceedsCurrency: String
    /// `Preserved Pricing`.
    public let preservedPricing: String
    /// `Proceeds Reason` (`Rate After One Year` or blank).
    public let proceedsReason: String
    /// `Client`.
    public let client: String
    /// `Device`.
    public let device: String
    /// `Country`.
    public let country: String

    /// The shared columns of row `c`, checked in column-reading order (IDs, price, proceeds, country).
    static func read(_ c: RowCells) throws -> AppleSubscriptionProduct {
        AppleSubscriptionProduct(
            appName: c.text("App Name"), appAppleID: try c.required("App Apple ID"), subscriptionName: c.text("Subscription Name"),
            subscriptionAppleID: try c.required("Subscription Apple ID"), subscriptionGroupID: c.text("Subscription Group ID"),
            standardSubscriptionDuration: c.text("Standard Subscription Duration"),
            subscriptionOfferName: c.text("Subscription Offer Name"), promotionalOfferID: c.text("Promotional Offer ID"),
            customerPriceMicros: try c.micros("Customer Price"), customerCurrency: try c.currency("Customer Currency"),
            developerProceedsMicros: try c.micros("Developer Proceeds"), proceedsCurrency: try c.currency("Proceeds Currency"),
            preservedPricing: c.text("Preserved Pricing"), proceedsReason: c.text("Proceeds Reason"), client: c.text("Client"),
            device: c.text("Device"), country: try c.required("Country"))
    }
}

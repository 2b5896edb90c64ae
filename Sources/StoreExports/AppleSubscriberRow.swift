/// One row of Apple's Subscriber report (SUBSCRIBER, DETAILED, DAILY 1_3): one subscription event with its
/// price and proceeds. Single-space cells are read as empty. Dates are in the agreement's zone (US Pacific).
public struct AppleSubscriberRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// `Event Date`.
    public let eventDate: CalendarDate
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
    /// `Subscription Offer Type`.
    public let subscriptionOfferType: String
    /// `Subscription Offer Duration`.
    public let subscriptionOfferDuration: String
    /// `Marketing Opt-In Duration`.
    public let marketingOptInDuration: String
    /// `Customer Price`, micros of `customerCurrency` (negative on refunds).
    public let customerPriceMicros: Int64
    /// `Customer Currency`.
    public let customerCurrency: String
    /// `Developer Proceeds`, micros of `proceedsCurrency`.
    public let developerProceedsMicros: Int64
    /// `Proceeds Currency`.
    public let proceedsCurrency: String
    /// `Preserved Pricing`.
    public let preservedPricing: String
    /// `Proceeds Reason` (`Rate After One Year`, …).
    public let proceedsReason: String
    /// `Client`.
    public let client: String
    /// `Device`.
    public let device: String
    /// `Country`.
    public let country: String
    /// `Subscriber ID`: anonymised per app, not a transaction ID.
    public let subscriberID: String
    /// `Subscriber ID Reset`.
    public let subscriberIDReset: String
    /// `Refund` = `Yes`.
    public let isRefund: Bool
    /// `Purchase Date`: the original purchase, on refund rows only.
    public let purchaseDate: CalendarDate?
    /// `Units`.
    public let units: Int64
}

/// A parsed Subscriber report.
public struct AppleSubscriberReport: Sendable, Equatable {
    /// The file name.
    public let file: String
    /// Every row in file order.
    public let rows: [AppleSubscriberRow]
    /// The zone of the report's dates (the agreement's zone; worldwide: US Pacific).
    public let zone: String
}

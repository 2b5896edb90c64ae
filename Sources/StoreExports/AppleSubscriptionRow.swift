/// One row of Apple's Subscription report (SUBSCRIPTION, SUMMARY, DAILY): the store's own count, on the report's day,
/// of subscriptions by state for one subscription, price, offer, device and country. Counts are exact integers; the
/// counts a layout does not carry are nil. Single-space cells are read as empty.
public struct AppleSubscriptionRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// The report's day (from the file name `Subscription_<vendor>_<YYYYMMDD>`; the rows carry no date).
    public let reportDate: CalendarDate
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
    /// `Subscription Offer Name` (`Promotional Offer Name` in the real 1_3 files).
    public let subscriptionOfferName: String
    /// `Promotional Offer ID`.
    public let promotionalOfferID: String
    /// `Customer Price`, micros of `customerCurrency`.
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
    /// `State`.
    public let state: String
    /// `Country`.
    public let country: String
    /// The counts, by the column name Apple gives each (`Active Standard Price Subscriptions`, …), in
    /// `AppleSubscriptionReportParser.countColumns` order; nil where the file's layout lacks the column (or, for
    /// `Subscribers`, the cell is blank: Apple fills it only for rows of more than 3 subscriptions).
    public let counts: [String: Int64?]

    /// The count of `column` (nil when the layout lacks it or the cell is a blank `Subscribers`).
    public func count(_ column: String) -> Int64? { counts[column] ?? nil }
}

/// A parsed Subscription report.
public struct AppleSubscriptionReport: Sendable, Equatable {
    /// The file name.
    public let file: String
    /// The report's day.
    public let reportDate: CalendarDate
    /// Every row in file order.
    public let rows: [AppleSubscriptionRow]
}

/// One row of Apple's Subscription Event report (SUBSCRIPTION_EVENT, SUMMARY, DAILY, version 1_3): how many times
/// (`quantity`) one event happened on `eventDate` to subscriptions alike in every other column. The report carries
/// counts only (no prices or proceeds). Single-space cells are read as empty; dates are US Pacific days.
public struct AppleSubscriptionEventRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// `Event Date`.
    public let eventDate: CalendarDate
    /// `Event`, as written (one of `AppleSubscriptionEventValues.events`).
    public let event: String
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
    /// `Standard Subscription Duration`.
    public let standardSubscriptionDuration: String
    /// `Subscription Offer Type` (`Free Trial`, `Pay As You Go`, `Pay Up Front` or empty).
    public let subscriptionOfferType: String
    /// `Subscription Offer Duration`.
    public let subscriptionOfferDuration: String
    /// `Marketing Opt-In` = `Yes`.
    public let marketingOptIn: Bool
    /// `Marketing Opt-In Duration`.
    public let marketingOptInDuration: String
    /// `Preserved Pricing` = `Yes`.
    public let preservedPricing: Bool
    /// `Proceeds Reason` (`Rate After One Year` or empty).
    public let proceedsReason: String
    /// `Subscription Offer Name` (`Promotional Offer Name` in the real 1_3 files).
    public let subscriptionOfferName: String
    /// `Promotional Offer ID`.
    public let promotionalOfferID: String
    /// `Consecutive Paid Periods`; nil when blank.
    public let consecutivePaidPeriods: Int64?
    /// `Original Start Date`; nil when blank.
    public let originalStartDate: CalendarDate?
    /// `Client`.
    public let client: String
    /// `Device`.
    public let device: String
    /// `State`.
    public let state: String
    /// `Country`.
    public let country: String
    /// `Previous Subscription Name` (upgrades, downgrades, crossgrades).
    public let previousSubscriptionName: String
    /// `Previous Subscription Apple ID`.
    public let previousSubscriptionAppleID: String
    /// `Days Before Canceling`; nil when blank.
    public let daysBeforeCanceling: Int64?
    /// `Cancellation Reason` (one of `AppleSubscriptionEventValues.cancellationReasons` or empty).
    public let cancellationReason: String
    /// `Days Canceled` (reactivations); nil when blank.
    public let daysCanceled: Int64?
    /// `Quantity`: the number of such events.
    public let quantity: Int64
}

/// A parsed Subscription Event report.
public struct AppleSubscriptionEventReport: Sendable, Equatable {
    /// The file name.
    public let file: String
    /// Every row in file order.
    public let rows: [AppleSubscriptionEventRow]
}

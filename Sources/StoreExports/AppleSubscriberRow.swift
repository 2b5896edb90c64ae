/// One row of Apple's Subscriber report (SUBSCRIBER, DETAILED, DAILY 1_3): one subscription event with its
/// price and proceeds. Single-space cells are read as empty. Dates are in the agreement's zone (US Pacific).
@dynamicMemberLookup
public struct AppleSubscriberRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// `Event Date`.
    public let eventDate: CalendarDate
    /// The columns shared with the Subscription report (read as the row's own: `row.appName`).
    public let product: AppleSubscriptionProduct
    /// `Subscription Offer Type`.
    public let subscriptionOfferType: String
    /// `Subscription Offer Duration`.
    public let subscriptionOfferDuration: String
    /// `Marketing Opt-In Duration`.
    public let marketingOptInDuration: String
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

    /// A shared column (`row.appName`, `row.developerProceedsMicros`, …).
    public subscript<Value>(dynamicMember path: KeyPath<AppleSubscriptionProduct, Value>) -> Value { product[keyPath: path] }
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

/// One row of Apple's Subscription report (SUBSCRIPTION, SUMMARY, DAILY): the store's own count, on the report's day,
/// of subscriptions by state for one subscription, price, offer, device and country. Counts are exact integers; the
/// counts a layout does not carry are nil. Single-space cells are read as empty.
@dynamicMemberLookup
public struct AppleSubscriptionRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// The report's day (from the file name `Subscription_<vendor>_<YYYYMMDD>`; the rows carry no date).
    public let reportDate: CalendarDate
    /// The columns shared with the Subscriber report (read as the row's own: `row.appName`).
    public let product: AppleSubscriptionProduct
    /// `State`.
    public let state: String
    /// The counts, by the column name Apple gives each (`Active Standard Price Subscriptions`, …), in
    /// `AppleSubscriptionReportParser.countColumns` order; nil where the file's layout lacks the column (or, for
    /// `Subscribers`, the cell is blank: Apple fills it only for rows of more than 3 subscriptions).
    public let counts: [String: Int64?]

    /// The count of `column` (nil when the layout lacks it or the cell is a blank `Subscribers`).
    public func count(_ column: String) -> Int64? { counts[column] ?? nil }

    /// A shared column (`row.appName`, `row.developerProceedsMicros`, …).
    public subscript<Value>(dynamicMember path: KeyPath<AppleSubscriptionProduct, Value>) -> Value { product[keyPath: path] }
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

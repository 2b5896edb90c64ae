/// Reads Apple's Subscription Event report (SUBSCRIPTION_EVENT, SUMMARY, DAILY, version 1_3; tab-separated, columns by
/// name in any order). Both layouts of 1_3 are accepted: the real files' (`Promotional Offer Name` before
/// `Promotional Offer ID`) and the one Apple's field definitions list today (`Subscription Offer Name`). Every other
/// column, and an `Event`, `Subscription Offer Type`, `Cancellation Reason` or `Yes` flag outside the documented values,
/// is refused naming file, line, column and value.
public enum AppleSubscriptionEventParser {
    static let columns: [ColumnSpec] = [
        .required("Event Date"), .required("Event"), .required("App Name"), .required("App Apple ID"),
        .required("Subscription Name"), .required("Subscription Apple ID"), .required("Subscription Group ID"),
        .required("Standard Subscription Duration"), .required("Subscription Offer Type"),
        .required("Subscription Offer Duration"), .required("Marketing Opt-In"), .required("Marketing Opt-In Duration"),
        .required("Preserved Pricing"), .required("Proceeds Reason"),
        .required("Subscription Offer Name", "Promotional Offer Name"), .required("Promotional Offer ID"),
        .required("Consecutive Paid Periods"), .required("Original Start Date"), .required("Client"), .required("Device"),
        .required("State"), .required("Country"), .required("Previous Subscription Name"),
        .required("Previous Subscription Apple ID"), .required("Days Before Canceling"), .required("Cancellation Reason"),
        .required("Days Canceled"), .required("Quantity"),
    ]

    /// Parses `bytes` read from `file`; every row or a rejection naming file, line, column and value.
    public static func parse(_ bytes: [UInt8], file: String) throws -> AppleSubscriptionEventReport {
        AppleSubscriptionEventReport(file: file, rows: try scanner(file: file).all(bytes))
    }

    /// A reader of the report `file` as a stream (`AppleTabScanner`).
    public static func scanner(file: String) -> AppleTabScanner<AppleSubscriptionEventRow> {
        AppleTabScanner(file: file, specs: columns, blankLines: .refusedFirst, row: row)
    }

    static func row(_ c: RowCells) throws -> AppleSubscriptionEventRow {
        let event = try c.required("Event")
        _ = try c.oneOf("Event", AppleSubscriptionEventValues.events, what: "event")
        let quantity = try c.count("Quantity") ?? 0
        guard quantity > 0 else { throw c.failure("Quantity", "'Quantity' is 0; a row counts at least one event") }
        return AppleSubscriptionEventRow(
            line: c.record.line, eventDate: try c.requiredDate("Event Date", .iso), event: event, appName: c.text("App Name"),
            appAppleID: try c.required("App Apple ID"), subscriptionName: c.text("Subscription Name"),
            subscriptionAppleID: try c.required("Subscription Apple ID"), subscriptionGroupID: c.text("Subscription Group ID"),
            standardSubscriptionDuration: c.text("Standard Subscription Duration"),
            subscriptionOfferType: try c.oneOf("Subscription Offer Type", AppleSubscriptionEventValues.offerTypes, what: "offer type"),
            subscriptionOfferDuration: c.text("Subscription Offer Duration"), marketingOptIn: try c.yesOrBlank("Marketing Opt-In"),
            marketingOptInDuration: c.text("Marketing Opt-In Duration"), preservedPricing: try c.yesOrBlank("Preserved Pricing"),
            proceedsReason: c.text("Proceeds Reason"), subscriptionOfferName: c.text("Subscription Offer Name"),
            promotionalOfferID: c.text("Promotional Offer ID"),
            consecutivePaidPeriods: try c.count("Consecutive Paid Periods", optional: true),
            originalStartDate: try c.date("Original Start Date", .iso, optional: true), client: c.text("Client"),
            device: c.text("Device"), state: c.text("State"), country: try c.required("Country"),
            previousSubscriptionName: c.text("Previous Subscription Name"),
            previousSubscriptionAppleID: c.text("Previous Subscription Apple ID"),
            daysBeforeCanceling: try c.count("Days Before Canceling", optional: true),
            cancellationReason: try c.oneOf("Cancellation Reason", AppleSubscriptionEventValues.cancellationReasons,
                                            what: "cancellation reason"),
            daysCanceled: try c.count("Days Canceled", optional: true), quantity: quantity)
    }
}

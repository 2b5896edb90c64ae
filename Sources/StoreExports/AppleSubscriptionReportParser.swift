/// Reads Apple's Subscription report (SUBSCRIPTION, SUMMARY, DAILY, version 1_3; tab-separated, columns by name in any
/// order). Two layouts of 1_3 are accepted: the one real files carry (`Promotional Offer Name`, no offer-code counts) and
/// the one Apple's field definitions list today (`Subscription Offer Name`, the three offer-code counts and
/// `Subscribers`). Any other column is refused at the header naming it. The report's day comes from the file name.
public enum AppleSubscriptionReportParser {
    /// The count columns every accepted layout carries.
    static let requiredCounts = [
        "Active Standard Price Subscriptions", "Active Free Trial Introductory Offer Subscriptions",
        "Active Pay Up Front Introductory Offer Subscriptions", "Active Pay As You Go Introductory Offer Subscriptions",
        "Free Trial Promotional Offer Subscriptions", "Pay Up Front Promotional Offer Subscriptions",
        "Pay As You Go Promotional Offer Subscriptions", "Marketing Opt-Ins", "Billing Retry", "Grace Period",
    ]
    /// The count columns only Apple's documented layout carries.
    static let optionalCounts = ["Free Trial Offer Code Subscriptions", "Pay Up Front Offer Code Subscriptions",
                                 "Pay As You Go Offer Code Subscriptions"]
    /// Every count column, in staging order (`Subscribers` last: blank unless the row stands for more than 3).
    public static let countColumns = requiredCounts + optionalCounts + ["Subscribers"]

    static let columns: [ColumnSpec] = [
        .required("App Name"), .required("App Apple ID"), .required("Subscription Name"), .required("Subscription Apple ID"),
        .required("Subscription Group ID"), .required("Standard Subscription Duration"),
        .required("Subscription Offer Name", "Promotional Offer Name"), .required("Promotional Offer ID"),
        .required("Customer Price"), .required("Customer Currency"), .required("Developer Proceeds"),
        .required("Proceeds Currency"), .required("Preserved Pricing"), .required("Proceeds Reason"), .required("Client"),
        .required("Device"), .required("State"), .required("Country"),
    ] + requiredCounts.map { ColumnSpec.required($0) } + (optionalCounts + ["Subscribers"]).map { ColumnSpec.optional($0) }

    /// Parses `bytes` read from `file`; every row or a rejection naming file, line, column and value. The report's day
    /// is `reportDate`, or when nil the one `file`'s name carries (a name without one is refused).
    public static func parse(_ bytes: [UInt8], file: String, reportDate: CalendarDate? = nil) throws -> AppleSubscriptionReport {
        let scanner = try scanner(file: file, reportDate: reportDate)
        return AppleSubscriptionReport(file: file, reportDate: scanner.day, rows: try scanner.reader.all(bytes))
    }

    /// A reader of the report `file` as a stream (`AppleTabScanner`) and the report's day (`reportDate`, or the one
    /// the file name carries: a name without one is refused).
    public static func scanner(file: String, reportDate: CalendarDate? = nil) throws
        -> (reader: AppleTabScanner<AppleSubscriptionRow>, day: CalendarDate) {
        guard let day = reportDate ?? AppleTabReport.reportDate(fileName: file) else {
            throw StoreReportError(file: file, line: 1, column: 1,
                                   reason: "the file name carries no report day (expected Subscription_<vendor>_<YYYYMMDD>…)")
        }
        return (AppleTabScanner(file: file, specs: columns, blankLines: .refusedFirst) { try row($0, day: day) }, day)
    }

    static func row(_ c: RowCells, day: CalendarDate) throws -> AppleSubscriptionRow {
        var counts: [String: Int64?] = [:]
        for name in requiredCounts + optionalCounts { counts[name] = try c.count(name) }
        counts["Subscribers"] = try c.count("Subscribers", optional: true)
        return AppleSubscriptionRow(line: c.record.line, reportDate: day, product: try AppleSubscriptionProduct.read(c),
                                    state: c.text("State"), counts: counts)
    }
}

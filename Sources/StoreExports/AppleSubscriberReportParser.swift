import BillingCore

/// Reads Apple's Subscriber report (tab-separated, columns by name; the last line may lack its newline).
/// Layout 1_3 and earlier call `Subscription Offer Name` `Promotional Offer Name` and carry `Promotional Offer ID`
/// beside it (a real 1_3 file has both, columns 8 and 9): the old name is an alias of the offer *name*, never of the ID.
public enum AppleSubscriberReportParser {
    static let columns: [ColumnSpec] = [
        .required("Event Date"), .required("App Name"), .required("App Apple ID"), .required("Subscription Name"),
        .required("Subscription Apple ID"), .optional("Subscription Group ID"), .optional("Standard Subscription Duration"),
        .optional("Subscription Offer Name", "Promotional Offer Name"), .optional("Promotional Offer ID"),
        .optional("Subscription Offer Type"), .optional("Subscription Offer Duration"), .optional("Marketing Opt-In Duration"),
        .required("Customer Price"), .required("Customer Currency"), .required("Developer Proceeds"),
        .required("Proceeds Currency"), .optional("Preserved Pricing"), .optional("Proceeds Reason"), .optional("Client"),
        .optional("Device"), .required("Country"), .required("Subscriber ID"), .optional("Subscriber ID Reset"),
        .required("Refund"), .optional("Purchase Date"), .required("Units"),
    ]

    /// Parses `bytes` read from `file`; dates are in `zone` (default US Pacific, the worldwide agreement's zone).
    public static func parse(_ bytes: [UInt8], file: String, zone: String = "America/Los_Angeles") throws -> AppleSubscriberReport {
        AppleSubscriberReport(file: file, rows: try scanner(file: file).all(bytes), zone: zone)
    }

    /// A reader of the report `file` as a stream (`AppleTabScanner`): a blank line is refused where it stands.
    public static func scanner(file: String) -> AppleTabScanner<AppleSubscriberRow> {
        AppleTabScanner(file: file, specs: columns, blankLines: .refusedInOrder, row: row)
    }

    static func row(_ c: RowCells) throws -> AppleSubscriberRow {
        let refund = c.text("Refund")
        guard refund.isEmpty || refund == "Yes" || refund == "No" else {
            throw c.failure("Refund", "'Refund' is '\(Redaction.excerpt(refund))', expected Yes or empty")
        }
        let eventDate = try c.requiredDate("Event Date", .iso)
        return AppleSubscriberRow(
            line: c.record.line, eventDate: eventDate, product: try AppleSubscriptionProduct.read(c),
            subscriptionOfferType: c.text("Subscription Offer Type"), subscriptionOfferDuration: c.text("Subscription Offer Duration"),
            marketingOptInDuration: c.text("Marketing Opt-In Duration"), subscriberID: try c.required("Subscriber ID"),
            subscriberIDReset: c.text("Subscriber ID Reset"), isRefund: refund == "Yes",
            purchaseDate: try c.date("Purchase Date", .iso, optional: true), units: try c.integer("Units"))
    }
}

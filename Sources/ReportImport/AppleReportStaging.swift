import JobKit
import Postgres
import StoreExports

/// Reads Apple's financial reports and Sales and Trends reports — Subscriber, Subscription, Subscription Event and
/// Summary Sales — once as a stream (`ReportStream`: plain or gzip), each row read by the report's
/// `AppleTabScanner` and, when staging, copied into its staging table (`COPY … FROM STDIN`) as soon as it is read.
/// Memory stays that of one chunk and one line whatever the file's size; a defect is reported after the file's last
/// byte, as a whole-file read reports it, and the COPY (and the caller's transaction) then keeps nothing.
enum AppleReportStaging {
    /// Whether `kind` is read and staged as a stream here.
    static func streams(_ kind: StoreReportKind) -> Bool {
        switch kind {
        case .appleFinancial, .appleSubscriber, .appleSubscription, .appleSubscriptionEvent, .appleSummarySales: return true
        default: return false
        }
    }

    /// Copies every row of the report file at `path` (of a kind `streams`) under `fileID` while it is read; a defect
    /// of the file aborts the COPY and is thrown.
    static func stage(_ path: String, kind: StoreReportKind, fileID: Int64, into database: PostgresConnection) throws -> StreamTally {
        let id = String(fileID)
        var tally: StreamTally?
        try database.copyIn(copy(kind)) { copy in
            tally = try read(path, kind: kind) { try copy.writeRow([id] + $0) }
        }
        guard let tally else { preconditionFailure("the COPY body returned without reading") }
        return tally
    }

    /// Reads the report file at `path` (of a kind `streams`; a financial report's totals and dates are checked after
    /// its last byte), handing each row's staging fields (after the file id, in
    /// the order of `copy(kind)`) to `row`. `afterReading` runs between the read and the second look at the file.
    static func read(_ path: String, kind: StoreReportKind, afterReading: () throws -> Void = {},
                     row: ([String?]) throws -> Void) throws -> StreamTally {
        switch kind {
        case .appleFinancial:
            var scanner = AppleFinancialScanner(file: ReportLoader.fileName(path))
            let content = try ReportStream.read(path, afterReading: afterReading, label: { scanner = AppleFinancialScanner(file: $0) },
                                                position: { scanner.position }, chunk: { try scanner.feed($0) { try row(fields($0)) } },
                                                finish: { _ = try scanner.finish { try row(fields($0)) } })
            return StreamTally(sha256: content.sha256, rows: scanner.rows)
        case .appleSubscriber:
            return try scan(path, afterReading, { AppleSubscriberReportParser.scanner(file: $0) }) { try row(fields($0)) }
        case .appleSubscription:
            return try scan(path, afterReading, { try AppleSubscriptionReportParser.scanner(file: $0).reader }) {
                try row(AppleSubscriptionStaging.fields($0))
            }
        case .appleSubscriptionEvent:
            return try scan(path, afterReading, { AppleSubscriptionEventParser.scanner(file: $0) }) {
                try row(AppleSubscriptionStaging.fields($0))
            }
        case .appleSummarySales:
            return try scan(path, afterReading, { AppleSummarySalesParser.scanner(file: $0) }) { try row(fields($0)) }
        default:
            preconditionFailure("\(kind) is not read as a stream of Apple rows")
        }
    }

    /// Streams `path` through the scanner `make` builds for the file's name.
    private static func scan<Row>(_ path: String, _ afterReading: () throws -> Void,
                                  _ make: (String) throws -> AppleTabScanner<Row>, _ emit: (Row) throws -> Void) throws -> StreamTally {
        var scanner = try make(ReportLoader.fileName(path))
        let content = try ReportStream.read(path, afterReading: afterReading, label: { if let named = try? make($0) { scanner = named } },
                                            position: { scanner.position }, chunk: { try scanner.feed($0, emit) },
                                            finish: { try scanner.finish(emit) })
        return StreamTally(sha256: content.sha256, rows: scanner.rows)
    }

    /// The `COPY` of `kind`'s staging table.
    static func copy(_ kind: StoreReportKind) -> String {
        switch kind {
        case .appleFinancial:
            return """
                COPY apple_financial_row (report_file_id, line, start_date, end_date, upc, isrc_isbn, vendor_identifier, quantity,
                partner_share_micros, extended_partner_share_micros, partner_share_currency, sale_or_return, apple_identifier,
                developer, title, label, grid, product_type_identifier, isan_other_identifier, country_of_sale, pre_order_flag,
                promo_code, customer_price_micros, customer_currency) FROM STDIN
                """
        case .appleSubscriber:
            return """
                COPY apple_subscriber_row (report_file_id, line, event_date, app_name, app_apple_id, subscription_name,
                subscription_apple_id, subscription_group_id, standard_subscription_duration, subscription_offer_name,
                promotional_offer_id, subscription_offer_type, subscription_offer_duration, marketing_opt_in_duration,
                customer_price_micros, customer_currency, developer_proceeds_micros, proceeds_currency, preserved_pricing,
                proceeds_reason, client, device, country, subscriber_id, subscriber_id_reset, is_refund, purchase_date, units)
                FROM STDIN
                """
        case .appleSubscription: return AppleSubscriptionStaging.subscriptionCopy
        case .appleSubscriptionEvent: return AppleSubscriptionStaging.eventCopy
        case .appleSummarySales:
            return """
                COPY apple_sales_summary_row (report_file_id, line, provider, provider_country, sku, developer, title, version,
                product_type_identifier, units, developer_proceeds_micros, begin_date, end_date, customer_currency, country_code,
                currency_of_proceeds, apple_identifier, customer_price_micros, promo_code, parent_identifier, subscription,
                period, extra) FROM STDIN
                """
        default: preconditionFailure("\(kind) is not read as a stream of Apple rows")
        }
    }

    /// A financial report row's staging fields.
    static func fields(_ r: AppleFinancialRow) -> [String?] {
        [String(r.line), r.startDate.description, r.endDate.description, r.upc, r.isrcIsbn, r.vendorIdentifier,
         String(r.quantity), String(r.partnerShareMicros), String(r.extendedPartnerShareMicros), r.partnerShareCurrency,
         r.saleOrReturn.rawValue, r.appleIdentifier, r.developer, r.title, r.label, r.grid, r.productTypeIdentifier,
         r.isanOtherIdentifier, r.countryOfSale, r.preOrderFlag, r.promoCode, String(r.customerPriceMicros), r.customerCurrency]
    }

    /// A Subscriber row's staging fields.
    static func fields(_ r: AppleSubscriberRow) -> [String?] {
        [String(r.line), r.eventDate.description, r.appName, r.appAppleID, r.subscriptionName, r.subscriptionAppleID,
         r.subscriptionGroupID, r.standardSubscriptionDuration, r.subscriptionOfferName, r.promotionalOfferID,
         r.subscriptionOfferType, r.subscriptionOfferDuration, r.marketingOptInDuration, String(r.customerPriceMicros),
         r.customerCurrency, String(r.developerProceedsMicros), r.proceedsCurrency, r.preservedPricing, r.proceedsReason,
         r.client, r.device, r.country, r.subscriberID, r.subscriberIDReset, r.isRefund ? "t" : "f",
         r.purchaseDate?.description, String(r.units)]
    }

    /// A Summary Sales row's staging fields.
    static func fields(_ r: AppleSummarySalesRow) -> [String?] {
        [String(r.line), r.provider, r.providerCountry, r.sku, r.developer, r.title, r.version, r.productTypeIdentifier,
         String(r.units), String(r.developerProceedsMicros), r.beginDate.description, r.endDate.description,
         r.customerCurrency, r.countryCode, r.currencyOfProceeds, r.appleIdentifier, String(r.customerPriceMicros),
         r.promoCode, r.parentIdentifier, r.subscription, r.period, JSONLine.encode(r.extra)]
    }
}

/// What reading a report file as a stream found: the content's hash and the number of rows.
public struct StreamTally: Sendable, Equatable {
    /// SHA-256 (hex) of the decompressed content.
    public let sha256: String
    /// Rows read.
    public let rows: Int
}

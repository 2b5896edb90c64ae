/// One row of Apple's Summary Sales report (SALES, SUMMARY): units and per-unit proceeds of one product,
/// country and price over the report's days (US Pacific calendar days).
public struct AppleSummarySalesRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// `Provider`.
    public let provider: String
    /// `Provider Country`.
    public let providerCountry: String
    /// `SKU`.
    public let sku: String
    /// `Developer`.
    public let developer: String
    /// `Title`.
    public let title: String
    /// `Version`.
    public let version: String
    /// `Product Type Identifier`.
    public let productTypeIdentifier: String
    /// `Units` (negative on returns).
    public let units: Int64
    /// `Developer Proceeds` per unit, micros of `currencyOfProceeds`.
    public let developerProceedsMicros: Int64
    /// `Begin Date`.
    public let beginDate: CalendarDate
    /// `End Date`.
    public let endDate: CalendarDate
    /// `Customer Currency`.
    public let customerCurrency: String
    /// `Country Code`.
    public let countryCode: String
    /// `Currency of Proceeds`; nil on a free row (proceeds 0), where Apple leaves the cell blank.
    public let currencyOfProceeds: String?
    /// `Apple Identifier`.
    public let appleIdentifier: String
    /// `Customer Price` per unit, micros of `customerCurrency`.
    public let customerPriceMicros: Int64
    /// `Promo Code`.
    public let promoCode: String
    /// `Parent Identifier`.
    public let parentIdentifier: String
    /// `Subscription` (`New`, `Renewal`, or empty).
    public let subscription: String
    /// `Period` (`1 Month`, …).
    public let period: String
    /// Other known columns the file carries (`Category`, `Device`, `Client`, …), by header name.
    public let extra: [String: String]
}

/// One data row of an Apple Financial Report: units and proceeds of one product, country, price and
/// sale/return for the fiscal period. Apple's reports are aggregates: no transaction IDs.
public struct AppleFinancialRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// First day of the fiscal period (`Start Date`).
    public let startDate: CalendarDate
    /// Last day of the fiscal period (`End Date`).
    public let endDate: CalendarDate
    /// `UPC`.
    public let upc: String
    /// `ISRC/ISBN`.
    public let isrcIsbn: String
    /// `Vendor Identifier`: the product ID (SKU).
    public let vendorIdentifier: String
    /// Signed units (negative on returns).
    public let quantity: Int64
    /// Per-unit proceeds (`Partner Share`), micros of `partnerShareCurrency`.
    public let partnerShareMicros: Int64
    /// `Extended Partner Share` = quantity × partner share, signed, micros.
    public let extendedPartnerShareMicros: Int64
    /// `Partner Share Currency`.
    public let partnerShareCurrency: String
    /// `Sales or Return` (`Sale or Return` in some spellings).
    public let saleOrReturn: AppleSaleOrReturn
    /// `Apple Identifier`.
    public let appleIdentifier: String
    /// `Artist/Show/Developer/Author`.
    public let developer: String
    /// `Title` (can be non-ASCII).
    public let title: String
    /// `Label/Studio/Network/Developer/Publisher`.
    public let label: String
    /// `Grid`.
    public let grid: String
    /// `Product Type Identifier` as written (`IAY`, `1F`, …); see `AppleProductType`.
    public let productTypeIdentifier: String
    /// `ISAN/Other Identifier`.
    public let isanOtherIdentifier: String
    /// `Country Of Sale` (ISO 3166 alpha-2).
    public let countryOfSale: String
    /// `Pre-order Flag`.
    public let preOrderFlag: String
    /// `Promo Code` (`CR` on promo-code redemptions, which carry 0.00 amounts).
    public let promoCode: String
    /// `Customer Price`, micros of `customerCurrency` (negative on returns).
    public let customerPriceMicros: Int64
    /// `Customer Currency`.
    public let customerCurrency: String
}

/// `S` (sale) or `R` (return) of an Apple financial row.
public enum AppleSaleOrReturn: String, Sendable, Equatable {
    /// A sale (`S`), including promo-code redemptions.
    case sale = "S"
    /// A return (`R`): negative quantity and amounts.
    case `return` = "R"
}

/// Apple's Product Type Identifier codes known to this library; other codes are kept and reported.
public enum AppleProductType {
    /// Codes documented or seen in real files.
    public static let known: Set<String> = [
        "1", "1F", "1T", "F1", "1E", "1EP", "1EU", "7", "7F", "7T", "F7",
        "IA1", "IA9", "IAY", "IAC", "FI1", "1-B", "F1-B", "1E-B", "1EP-B", "1EU-B",
        "IA1-M", "IA9-M", "IAY-M", "IAC-M", "1-M", "1E-M", "1EP-M", "1EU-M", "1F-M",
    ]
    /// Whether `code` is an auto-renewable subscription (`IAY`, `IAY-M`).
    public static func isAutoRenewable(_ code: String) -> Bool { code == "IAY" || code == "IAY-M" }
}

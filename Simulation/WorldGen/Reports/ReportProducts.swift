/// Report-side facts about the simulated app and its stores that the catalogue does not carry.
struct ReportProducts {
    let catalogue: WorldCatalogue

    static let developer = "Example Fitness Ltd"
    static let appName = "Example Fitness"
    /// Apple's proceeds rate (70%; the 85% rate after a year of paid service is not modelled).
    static let appleProceedsPercent: Int64 = 70
    /// Google's service fee on subscriptions (15%).
    static let googleFeePercent: Int64 = 15
    /// The merchant (payout) currency of the Google account.
    static let merchantCurrency = "USD"

    /// Apple finance-report region code of a currency (only ZZ and Z1 are documented; these are UNCONFIRMED).
    static func appleRegion(_ currency: String) -> String {
        ["USD": "US", "EUR": "EU", "GBP": "GB", "JPY": "JP", "CAD": "CA", "AUD": "AU", "BRL": "BR", "INR": "IN"][currency] ?? "WW"
    }

    /// Currencies without minor units, whose financial-report totals Apple writes without decimals.
    static let zeroDecimalCurrencies: Set<String> = ["JPY", "KRW"]

    /// The payments summary's region name of a finance-report region code (English account language).
    static func applePaymentsRegion(_ region: String) -> String {
        ["US": "Americas", "EU": "Euro-Zone", "GB": "United Kingdom", "JP": "Japan", "CA": "Canada", "AU": "Australia",
         "BR": "Brazil", "IN": "India"][region] ?? "Rest of World"
    }

    /// The Google account's payout currency for Apple payments too (the bank account is in US dollars).
    static let bankCurrency = "USD"

    /// Buyer fields Google fills on earnings rows, per buyer country: (state, postal code) pairs, some non-ASCII.
    static let googleBuyerPlaces: [String: [(String, String)]] = [
        "US": [("KY", "40202"), ("CA", "94043"), ("NY", "10001")], "DE": [("BY", "80331"), ("BE", "10115")],
        "FR": [("Île-de-France", "75001"), ("Auvergne-Rhône-Alpes", "69001")], "GB": [("England", "SW1A 1AA")],
        "JP": [("東京都", "100-0001"), ("大阪府", "530-0001")], "CA": [("QC", "H2X 1Y4"), ("ON", "M5V 2T6")],
        "AU": [("NSW", "2000")], "BR": [("SP", "01310-100"), ("São Paulo", "04538-133")], "IN": [("MH", "400001"), ("KA", "560001")],
    ]
    /// Device codes Google writes in `Hardware`.
    static let googleHardware = ["a15", "redfin", "beyond1", "OnePlus7T", "starqltesq", "panther"]

    /// Tax included in Google prices, in basis points, by buyer country (Google remits it: `Tax` rows).
    static func googleTaxBasisPoints(_ country: String) -> Int64 {
        ["DE": 1_900, "FR": 2_000, "GB": 2_000, "JP": 1_000, "AU": 1_000, "IN": 1_800][country] ?? 0
    }

    /// Fixed conversion rates to USD, in micros of USD per unit (deterministic, not market data).
    static func usdRateMicros(_ currency: String) -> Int64 {
        ["USD": 1_000_000, "EUR": 1_080_000, "GBP": 1_270_000, "JPY": 6_700, "CAD": 730_000, "AUD": 660_000,
         "BRL": 200_000, "INR": 12_000][currency] ?? 1_000_000
    }

    /// The Apple Identifier of plan `plan`'s subscription product.
    func appleIdentifier(_ plan: Int) -> Int64 { catalogue.appAppleId + 1 + Int64(plan) }

    /// Apple's per-unit proceeds for a customer price: to the cent, to the whole unit in zero-decimal currencies (JPY).
    static func appleProceeds(_ micros: Int64, currency: String) -> Int64 {
        guard zeroDecimalCurrencies.contains(currency) else { return ReportDecimal.share(micros, appleProceedsPercent, 100) }
        return ReportDecimal.roundDiv(micros * appleProceedsPercent, 100 * 1_000_000) * 1_000_000
    }

    /// Google's split of a tax-inclusive price: (tax, fee), both positive, rounded to the cent.
    static func googleSplit(_ micros: Int64, country: String) -> (tax: Int64, fee: Int64) {
        let rate = googleTaxBasisPoints(country)
        let tax = ReportDecimal.share(micros, rate, 10_000 + rate)
        return (tax, ReportDecimal.share(micros - tax, googleFeePercent, 100))
    }

    /// Apple's standard duration text of a plan (`7 Days`, `1 Month`, `1 Year`).
    func duration(_ plan: Int) -> String {
        switch catalogue.plans[plan].billingPeriod {
        case "P1W": return "7 Days"
        case "P1Y": return "1 Year"
        default: return "1 Month"
        }
    }
}

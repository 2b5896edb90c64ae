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

    /// Apple's per-unit proceeds for a customer price.
    static func appleProceeds(_ micros: Int64) -> Int64 { ReportDecimal.share(micros, appleProceedsPercent, 100) }

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

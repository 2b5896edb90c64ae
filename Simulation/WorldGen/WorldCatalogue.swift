/// The simulated app's catalogue: plans, markets with local prices, price changes, store identifiers.
public struct WorldCatalogue: Sendable, Hashable {
    public let bundleId: String
    public let appAppleId: Int64
    public let subscriptionGroupIdentifier: String
    public let packageName: String
    public let plans: [CataloguePlan]
    public let markets: [CatalogueMarket]
    public let priceChanges: [CataloguePriceChange]

    /// The standard catalogue for `seed`, with price changes placed relative to the history window.
    public static func standard(seed: UInt64, asOfMs: Int64, months: Int) -> WorldCatalogue {
        let ids = WorldIdentifiers(seed: seed)
        let plans = [
            CataloguePlan(id: ids.uuid(.plan, 0), code: "pro_weekly", name: "Pro (weekly)", intervalUnit: "MONTHLY",
                          billingPeriod: "P1W", appleProductId: "com.example.fitness.pro.weekly", googleProductId: "pro_weekly",
                          googleBasePlanId: "weekly", googleTrialOfferId: nil, weight: 0.15, rank: 0),
            CataloguePlan(id: ids.uuid(.plan, 1), code: "pro_monthly", name: "Pro (monthly)", intervalUnit: "MONTHLY",
                          billingPeriod: "P1M", appleProductId: "com.example.fitness.pro.monthly", googleProductId: "pro_monthly",
                          googleBasePlanId: "monthly", googleTrialOfferId: "freetrial-7d", weight: 0.60, rank: 1),
            CataloguePlan(id: ids.uuid(.plan, 2), code: "pro_yearly", name: "Pro (yearly)", intervalUnit: "YEARLY",
                          billingPeriod: "P1Y", appleProductId: "com.example.fitness.pro.yearly", googleProductId: "pro_yearly",
                          googleBasePlanId: "yearly", googleTrialOfferId: "freetrial-7d", weight: 0.25, rank: 2),
        ]
        func market(_ alpha3: String, _ storefrontId: String, _ alpha2: String, _ currency: String,
                    _ weekly: Int64, _ monthly: Int64, _ yearly: Int64, _ weight: Double) -> CatalogueMarket {
            CatalogueMarket(appleStorefront: alpha3, appleStorefrontId: storefrontId, googleRegion: alpha2, currency: currency,
                            prices: ["pro_weekly": weekly, "pro_monthly": monthly, "pro_yearly": yearly], weight: weight)
        }
        let markets = [
            market("USA", "143441", "US", "USD", 2_990_000, 9_990_000, 59_990_000, 0.35),
            market("DEU", "143443", "DE", "EUR", 2_990_000, 9_990_000, 59_990_000, 0.10),
            market("FRA", "143442", "FR", "EUR", 2_990_000, 9_990_000, 59_990_000, 0.07),
            market("GBR", "143444", "GB", "GBP", 2_490_000, 8_990_000, 49_990_000, 0.08),
            market("JPN", "143462", "JP", "JPY", 450_000_000, 1_500_000_000, 9_800_000_000, 0.10),
            market("CAN", "143455", "CA", "CAD", 3_990_000, 12_990_000, 79_990_000, 0.06),
            market("AUS", "143460", "AU", "AUD", 4_490_000, 14_990_000, 89_990_000, 0.05),
            market("BRA", "143503", "BR", "BRL", 12_900_000, 34_900_000, 199_900_000, 0.10),
            market("IND", "143467", "IN", "INR", 99_000_000, 299_000_000, 1_999_000_000, 0.09),
        ]
        let changes = standardPriceChanges(asOfMs: asOfMs, months: months)
        return WorldCatalogue(bundleId: "com.example.fitness", appAppleId: 1_478_523_690, subscriptionGroupIdentifier: "21456789",
                              packageName: "com.example.fitness", plans: plans, markets: markets, priceChanges: changes)
    }

    /// The list price of `plan` in `market` and store for a purchase or renewal at `atMs` (after any change took effect).
    public func price(plan: Int, market: Int, atMs: Int64, isApple: Bool) -> Int64 {
        let code = plans[plan].code
        for change in priceChanges where change.applies(isApple: isApple, market: markets[market], planCode: code)
            && atMs >= change.effectiveAtMs {
            return change.newMicros
        }
        return markets[market].prices[code] ?? 0
    }

    /// The price change that applies to a renewal of `plan` in `market` and store at `atMs` from `currentMicros`, if any.
    func change(plan: Int, market: Int, renewalAtMs: Int64, currentMicros: Int64, isApple: Bool) -> CataloguePriceChange? {
        let code = plans[plan].code
        return priceChanges.first {
            $0.applies(isApple: isApple, market: markets[market], planCode: code) && renewalAtMs >= $0.effectiveAtMs
                && currentMicros == $0.oldMicros
        }
    }
}

import BillingCore

/// A price change of one store product in one region, announced before it takes effect.
///
/// Changes reach only their provider, product and region (a storefront / Google region), so subscribers of the same
/// product elsewhere, or in the other store, are an unaffected baseline. Subscribers are told at
/// `max(announcedAt, renewal − 30 days)`; a renewal at or after `effectiveAt` that was told in time charges `newMicros`.
public struct CataloguePriceChange: Sendable, Hashable {
    /// Stable identifier within the catalogue (`pc1`, `pc2`, …).
    public let id: String
    /// APPLE or GOOGLE.
    public let provider: String
    public let planCode: String
    /// Google regionCode (ISO 3166 alpha-2) of the market; Apple changes use the market's storefront.
    public let region: String
    public let currency: String
    public let oldMicros: Int64
    public let newMicros: Int64
    /// When the developer announced the change (subscriber notices start here).
    public let announcedAtMs: Int64
    /// New purchases pay the new price from this instant; renewals from this instant on after notice.
    public let effectiveAtMs: Int64
    /// PRICE_INCREASE (consent: Apple, Google opt-in), OPT_OUT_PRICE_INCREASE (Google) or PRICE_DECREASE.
    public let mode: PriceChangeMode

    /// True for an increase.
    public var isIncrease: Bool { newMicros > oldMicros }

    /// True when the change applies to a subscription of this store in this market.
    func applies(isApple: Bool, market: CatalogueMarket, planCode code: String) -> Bool {
        provider == (isApple ? "APPLE" : "GOOGLE") && planCode == code && region == market.googleRegion && currency == market.currency
    }
}

extension WorldCatalogue {
    /// The standard, staggered price changes: a few products in a few regions, each in one store.
    static func standardPriceChanges(asOfMs: Int64, months: Int) -> [CataloguePriceChange] {
        let span = Int64(max(months, 1))
        func at(_ monthsBack: Int64) -> Int64 { WorldClock.addMonths(asOfMs, -max(min(monthsBack, span), 1)) }
        func change(_ number: Int, _ provider: String, _ plan: String, _ region: String, _ currency: String, _ old: Int64, _ new: Int64,
                    effective: Int64, noticeDays: Int64, _ mode: PriceChangeMode) -> CataloguePriceChange {
            CataloguePriceChange(id: "pc\(number)", provider: provider, planCode: plan, region: region, currency: currency,
                                 oldMicros: old, newMicros: new, announcedAtMs: effective - noticeDays * WorldClock.day,
                                 effectiveAtMs: effective, mode: mode)
        }
        return [
            change(1, "APPLE", "pro_monthly", "US", "USD", 9_990_000, 12_990_000, effective: at(span / 2), noticeDays: 35, .priceIncrease),
            change(2, "GOOGLE", "pro_monthly", "US", "USD", 9_990_000, 11_990_000, effective: at(span / 2 - 1), noticeDays: 40,
                   .priceIncrease),
            change(3, "APPLE", "pro_monthly", "DE", "EUR", 9_990_000, 10_990_000, effective: at(5), noticeDays: 35, .priceIncrease),
            change(4, "GOOGLE", "pro_yearly", "GB", "GBP", 49_990_000, 54_990_000, effective: at(4), noticeDays: 45, .optOutPriceIncrease),
            change(5, "APPLE", "pro_yearly", "GB", "GBP", 49_990_000, 54_990_000, effective: at(4), noticeDays: 35, .priceIncrease),
            change(6, "APPLE", "pro_monthly", "BR", "BRL", 34_900_000, 29_900_000, effective: at(3), noticeDays: 7, .priceDecrease),
            change(7, "GOOGLE", "pro_monthly", "BR", "BRL", 34_900_000, 29_900_000, effective: at(2), noticeDays: 7, .priceDecrease),
            change(8, "GOOGLE", "pro_weekly", "JP", "JPY", 450_000_000, 500_000_000, effective: at(2), noticeDays: 32, .optOutPriceIncrease),
        ]
    }
}

/// A storefront / region with its currency and local prices per plan (micros, by plan code).
public struct CatalogueMarket: Sendable, Hashable {
    /// Apple storefront, ISO 3166 alpha-3 (e.g. USA).
    public let appleStorefront: String
    /// Apple storefrontId.
    public let appleStorefrontId: String
    /// Google regionCode, ISO 3166 alpha-2 (e.g. US).
    public let googleRegion: String
    public let currency: String
    /// Price in micros by plan code, before any price change.
    public let prices: [String: Int64]
    /// Share of subscribers in this market.
    public let weight: Double
}

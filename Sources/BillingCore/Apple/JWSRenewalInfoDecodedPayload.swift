/// A decoded, verified Apple signed renewal info (field names as Apple spells them).
public struct JWSRenewalInfoDecodedPayload: Sendable, Equatable, Decodable {
    /// Raw `expirationIntent`; see `expirationIntentValue`.
    public var rawExpirationIntent: Int?
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    /// Raw `autoRenewStatus` (0 off, 1 on).
    public var autoRenewStatus: Int?
    public var isInBillingRetryPeriod: Bool?
    /// Raw `priceIncreaseStatus`; see `priceIncreaseStatusValue`.
    public var rawPriceIncreaseStatus: Int?
    public var gracePeriodExpiresDate: AppleTimestamp?
    /// Raw `offerType` of the upcoming renewal.
    public var rawOfferType: Int?
    public var offerIdentifier: String?
    public var signedDate: AppleTimestamp?
    /// Raw `environment`.
    public var rawEnvironment: String?
    public var recentSubscriptionStartDate: AppleTimestamp?
    public var renewalDate: AppleTimestamp?
    public var currency: String?
    /// Next renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    /// Raw `offerDiscountType` of the upcoming renewal.
    public var rawOfferDiscountType: String?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var offerPeriod: String?
    /// Raw `renewalBillingPlanType` of the next renewal.
    public var renewalBillingPlanType: String?
    /// How the subscription renews once its commitment ends.
    public var commitmentInfo: RenewalCommitmentInfo?
    /// Advanced Commerce API details, kept as sent.
    public var advancedCommerceInfo: AppleOpaqueJSON?

    enum CodingKeys: String, CodingKey {
        case rawExpirationIntent = "expirationIntent", originalTransactionId, autoRenewProductId, productId
        case autoRenewStatus, isInBillingRetryPeriod, rawPriceIncreaseStatus = "priceIncreaseStatus"
        case gracePeriodExpiresDate, rawOfferType = "offerType", offerIdentifier, signedDate
        case rawEnvironment = "environment", recentSubscriptionStartDate, renewalDate, currency, renewalPrice
        case rawOfferDiscountType = "offerDiscountType", eligibleWinBackOfferIds, appAccountToken
        case appTransactionId, offerPeriod, renewalBillingPlanType, commitmentInfo, advancedCommerceInfo
    }

    /// Creates renewal info with every field nil; set what you need.
    public init() {}

    /// The typed `expirationIntent`, nil when absent or unknown.
    public var expirationIntentValue: AppleExpirationIntent? { rawExpirationIntent.flatMap(AppleExpirationIntent.init(rawValue:)) }
    /// The typed `priceIncreaseStatus`, nil when absent or unknown.
    public var priceIncreaseStatusValue: ApplePriceIncreaseStatus? { rawPriceIncreaseStatus.flatMap(ApplePriceIncreaseStatus.init(rawValue:)) }
    /// The typed `offerType` of the upcoming renewal, nil when absent or unknown.
    public var offerTypeValue: AppleOfferType? { rawOfferType.flatMap(AppleOfferType.init(rawValue:)) }
    /// True when `autoRenewStatus` is 1, false when 0, nil when absent or unknown.
    public var isAutoRenewOn: Bool? {
        switch autoRenewStatus {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }

    /// The next renewal price as exact money, nil when price or currency is missing.
    public func renewalPriceMoney() throws(MoneyError) -> Money? {
        guard let renewalPrice, let currency else { return nil }
        return try Money(appleMilliunits: renewalPrice, currencyCode: currency)
    }
}

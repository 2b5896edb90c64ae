/// A decoded, verified Apple signed transaction (field names as Apple spells them).
public struct JWSTransactionDecodedPayload: Sendable, Equatable, Decodable {
    public var originalTransactionId: String?
    public var transactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: AppleTimestamp?
    public var originalPurchaseDate: AppleTimestamp?
    public var expiresDate: AppleTimestamp?
    public var quantity: Int?
    /// Raw `type`, e.g. "Auto-Renewable Subscription".
    public var type: String?
    public var appAccountToken: String?
    /// Raw `inAppOwnershipType` (PURCHASED / FAMILY_SHARED).
    public var inAppOwnershipType: String?
    public var signedDate: AppleTimestamp?
    /// Raw `revocationReason` (0 other, 1 app issue).
    public var revocationReason: Int?
    public var revocationDate: AppleTimestamp?
    public var isUpgraded: Bool?
    /// Raw `offerType`; see `offerTypeValue`.
    public var rawOfferType: Int?
    public var offerIdentifier: String?
    /// Raw `environment`; see `environmentValue`.
    public var rawEnvironment: String?
    public var storefront: String?
    public var storefrontId: String?
    /// Raw `transactionReason`; see `transactionReasonValue`.
    public var rawTransactionReason: String?
    public var currency: String?
    /// Price in milliunits of `currency`.
    public var price: Int64?
    /// Raw `offerDiscountType`; see `offerDiscountTypeValue`.
    public var rawOfferDiscountType: String?
    /// Raw `revocationType`; see `revocationTypeValue`.
    public var rawRevocationType: String?
    /// Refunded share in milliunits of a percent (100000 = 100 %).
    public var revocationPercentage: Int?
    public var offerPeriod: String?
    public var appTransactionId: String?
    /// Raw `billingPlanType` of the purchase (e.g. "BILLED_UPFRONT", "MONTHLY").
    public var billingPlanType: String?
    /// Where this charge sits in a subscription commitment.
    public var commitmentInfo: TransactionCommitmentInfo?
    /// Advanced Commerce API details, kept as sent.
    public var advancedCommerceInfo: AppleOpaqueJSON?

    enum CodingKeys: String, CodingKey {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId
        case subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity, type
        case appAccountToken, inAppOwnershipType, signedDate, revocationReason, revocationDate, isUpgraded
        case rawOfferType = "offerType", offerIdentifier, rawEnvironment = "environment", storefront, storefrontId
        case rawTransactionReason = "transactionReason", currency, price
        case rawOfferDiscountType = "offerDiscountType", rawRevocationType = "revocationType"
        case revocationPercentage, offerPeriod, appTransactionId, billingPlanType, commitmentInfo, advancedCommerceInfo
    }

    /// Creates a transaction with every field nil; set what you need.
    public init() {}

    /// The typed `offerType`, nil when absent or unknown.
    public var offerTypeValue: AppleOfferType? { rawOfferType.flatMap(AppleOfferType.init(rawValue:)) }
    /// The typed `offerDiscountType`, nil when absent or unknown.
    public var offerDiscountTypeValue: AppleOfferDiscountType? { rawOfferDiscountType.flatMap(AppleOfferDiscountType.init(rawValue:)) }
    /// The typed `environment`, nil when absent or unknown.
    public var environmentValue: AppleEnvironment? { rawEnvironment.map(AppleEnvironment.init(rawValue:)) }
    /// The typed `transactionReason`, nil when absent or unknown.
    public var transactionReasonValue: AppleTransactionReason? { rawTransactionReason.flatMap(AppleTransactionReason.init(rawValue:)) }
    /// The typed `revocationType`, nil when absent or unknown.
    public var revocationTypeValue: AppleRevocationType? { rawRevocationType.flatMap(AppleRevocationType.init(rawValue:)) }

    /// True for an introductory free trial (`offerType == 1 && offerDiscountType == FREE_TRIAL`).
    public var isFreeTrial: Bool { offerTypeValue == .introductory && offerDiscountTypeValue == .freeTrial }

    /// The charged price as exact money, nil when price or currency is missing.
    public func priceMoney() throws(MoneyError) -> Money? {
        guard let price, let currency else { return nil }
        return try Money(appleMilliunits: price, currencyCode: currency)
    }
}

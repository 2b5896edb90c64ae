/// An RTDN `voidedPurchaseNotification`.
public struct VoidedPurchaseNotification: Sendable, Equatable, Decodable {
    public var purchaseToken: String?
    public var orderId: String?
    /// 1 subscription, 2 one-time product.
    public var productType: Int?
    /// 1 full refund, 2 quantity-based partial refund.
    public var refundType: Int?

    enum CodingKeys: String, CodingKey { case purchaseToken, orderId, productType, refundType }

    /// Decodes, accepting numbers given as strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        purchaseToken = try container.decodeIfPresent(String.self, forKey: .purchaseToken)
        orderId = try container.decodeIfPresent(String.self, forKey: .orderId)
        productType = try container.decodeLenientIntIfPresent(forKey: .productType)
        refundType = try container.decodeLenientIntIfPresent(forKey: .refundType)
    }
}

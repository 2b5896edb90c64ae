import Foundation

/// A `voidedpurchases.list` item: a refunded, canceled or charged-back order.
public struct VoidedPurchase: Sendable, Equatable, Decodable {
    public var kind: String?
    public var purchaseToken: String?
    /// Identifies the voided order (renewals end in `..N`).
    public var orderId: String?
    public var purchaseTimeMillis: Int64?
    public var voidedTimeMillis: Int64?
    /// 0 user, 1 developer, 2 Google.
    public var voidedSource: Int?
    /// 0 other, 1 remorse, 2 not received, 3 defective, 4 accidental, 5 fraud, 6 friendly fraud,
    /// 7 chargeback, 8 unacknowledged purchase.
    public var voidedReason: Int?
    public var voidedQuantity: Int?

    enum CodingKeys: String, CodingKey {
        case kind, purchaseToken, orderId, purchaseTimeMillis, voidedTimeMillis, voidedSource, voidedReason, voidedQuantity
    }

    /// Creates a voided purchase.
    public init(purchaseToken: String, orderId: String, voidedTimeMillis: Int64, voidedReason: Int = 0, voidedSource: Int = 0) {
        self.purchaseToken = purchaseToken
        self.orderId = orderId
        self.voidedTimeMillis = voidedTimeMillis
        self.voidedReason = voidedReason
        self.voidedSource = voidedSource
    }

    /// Decodes, accepting every number as a JSON number or a decimal string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        purchaseToken = try container.decodeIfPresent(String.self, forKey: .purchaseToken)
        orderId = try container.decodeIfPresent(String.self, forKey: .orderId)
        purchaseTimeMillis = try container.decodeLenientInt64IfPresent(forKey: .purchaseTimeMillis)
        voidedTimeMillis = try container.decodeLenientInt64IfPresent(forKey: .voidedTimeMillis)
        voidedSource = try container.decodeLenientIntIfPresent(forKey: .voidedSource)
        voidedReason = try container.decodeLenientIntIfPresent(forKey: .voidedReason)
        voidedQuantity = try container.decodeLenientIntIfPresent(forKey: .voidedQuantity)
    }

    /// When the purchase was voided, nil when absent.
    public var voidedTime: Date? { voidedTimeMillis.map { Date(timeIntervalSince1970: Double($0) / 1_000) } }
    /// True for a chargeback (voidedReason 7).
    public var isChargeback: Bool { voidedReason == 7 }
}

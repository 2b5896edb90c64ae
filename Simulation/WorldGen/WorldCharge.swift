import BillingCore
import Foundation

/// A charge or refund of the world (amount, currency, country, date, order, product): the input for report files.
public struct WorldCharge: Sendable, Hashable {
    public let subscriptionId: String
    public let provider: String
    /// PURCHASED, RENEWED, RECOVERED, PRODUCT_CHANGED (charges) or REFUNDED.
    public let eventType: String
    public let transactionKey: String
    public let effectiveAt: Date
    public let orderId: String?
    /// The amount charged or refunded, as a positive magnitude (history rows store refunds negative).
    public let amountMicros: Int64
    public let currency: String
    public let country: String?
    public let isTest: Bool

    init?(_ record: BillingTransactionRecord, subscriptionId: String) {
        let charges: Set<BillingEventType> = [.purchased, .renewed, .recovered, .productChanged, .restarted, .refunded]
        guard charges.contains(record.eventType), let amount = record.amount else { return nil }
        self.subscriptionId = subscriptionId
        provider = record.provider.rawValue
        eventType = record.eventType.rawValue
        transactionKey = record.transactionKey
        effectiveAt = record.effectiveAt
        orderId = record.orderId
        amountMicros = abs(amount.micros)
        currency = amount.currencyCode
        country = record.storefront
        isTest = record.isTest
    }
}

import Foundation

/// A Google Play Orders API `Order` (`orders.get` / `orders.batchGet`): the fields the pipeline reads.
///
/// Amounts are `Money` (`total` includes tax); times are RFC 3339. The order's history says when it was processed,
/// fully refunded (`refundEvent`) or partly refunded (`partialRefundEvents`, each with its own `refundDetails`).
public struct GoogleOrder: Sendable, Equatable, Decodable {
    public var orderId: String?
    public var purchaseToken: String?
    /// `PROCESSED`, `PENDING`, `CANCELED`, `PENDING_REFUND`, `PARTIALLY_REFUNDED`, `REFUNDED`.
    public var state: String?
    public var createTime: String?
    public var lastEventTime: String?
    public var total: GoogleMoney?
    public var tax: GoogleMoney?
    public var lineItems: [GoogleOrderLineItem]?
    public var orderHistory: GoogleOrderHistory?
}

/// One line item of an order: the product and, for a subscription, its base plan and service period.
public struct GoogleOrderLineItem: Sendable, Equatable, Decodable {
    public var productId: String?
    public var productTitle: String?
    public var total: GoogleMoney?
    public var tax: GoogleMoney?
    public var subscriptionDetails: GoogleOrderSubscriptionDetails?
}

/// A subscription line item's details: the base plan, offer and the period the order paid for.
public struct GoogleOrderSubscriptionDetails: Sendable, Equatable, Decodable {
    public var basePlanId: String?
    public var offerId: String?
    /// `RECURRING_PAYMENT` and the like (as sent).
    public var offerPhase: String?
    public var servicePeriodStartTime: String?
    public var servicePeriodEndTime: String?
}

/// The events that changed an order.
public struct GoogleOrderHistory: Sendable, Equatable, Decodable {
    public var processedEvent: GoogleOrderEvent?
    public var cancellationEvent: GoogleOrderEvent?
    /// The order was fully refunded.
    public var refundEvent: GoogleOrderRefundEvent?
    public var partialRefundEvents: [GooglePartialRefundEvent]?
}

/// An order event with one instant (`processedEvent`, `cancellationEvent`).
public struct GoogleOrderEvent: Sendable, Equatable, Decodable {
    public var eventTime: String?
}

/// The full refund of an order.
public struct GoogleOrderRefundEvent: Sendable, Equatable, Decodable {
    public var eventTime: String?
    public var refundReason: String?
    public var refundDetails: GoogleRefundDetails?
}

/// One partial refund of an order.
public struct GooglePartialRefundEvent: Sendable, Equatable, Decodable {
    public var createTime: String?
    public var processTime: String?
    /// `PENDING` or `PROCESSED_SUCCESSFULLY`.
    public var state: String?
    public var refundDetails: GoogleRefundDetails?
}

/// What a refund gave back: `total` includes `tax`.
public struct GoogleRefundDetails: Sendable, Equatable, Decodable {
    public var total: GoogleMoney?
    public var tax: GoogleMoney?
}

/// `orders.batchGet`'s answer.
public struct GoogleBatchGetOrdersResponse: Sendable, Equatable, Decodable {
    public var orders: [GoogleOrder]?
}

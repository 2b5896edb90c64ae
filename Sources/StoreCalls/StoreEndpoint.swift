import RateLimiting

/// A store API call with its own quota bucket; the raw value is the key used in override strings.
public enum StoreEndpoint: String, CaseIterable, Sendable {
    case appleGetTransactionInfo = "apple.getTransactionInfo"
    case appleGetTransactionHistory = "apple.getTransactionHistory"
    case appleGetAllSubscriptionStatuses = "apple.getAllSubscriptionStatuses"
    case appleGetNotificationHistory = "apple.getNotificationHistory"
    case appleLookUpOrderId = "apple.lookUpOrderId"
    case appleGetRefundHistory = "apple.getRefundHistory"
    case appleRequestTestNotification = "apple.requestTestNotification"
    case appleGetTestNotificationStatus = "apple.getTestNotificationStatus"
    case googleSubscriptionsV2Get = "google.subscriptionsv2.get"
    case googleSubscriptionsAcknowledge = "google.subscriptions.acknowledge"
    case googleVoidedPurchasesList = "google.voidedpurchases.list"
    /// `orders.get` and `orders.batchGet` (one bucket: both draw from the Play Developer API quota).
    case googleOrdersGet = "google.orders.get"

    /// True for App Store Server API calls (their sandbox limits are 10% of production).
    public var isApple: Bool { rawValue.hasPrefix("apple.") }

    /// The stores' documented production limit (docs/store-apis.md).
    public var productionLimit: RateLimit {
        switch self {
        case .appleGetTransactionInfo, .appleGetTransactionHistory, .appleGetAllSubscriptionStatuses, .appleGetNotificationHistory:
            return .perSecond(50)
        case .appleLookUpOrderId, .appleGetRefundHistory:
            return .perSecond(10)
        case .appleRequestTestNotification, .appleGetTestNotificationStatus:
            return .perSecond(1)
        case .googleSubscriptionsV2Get, .googleSubscriptionsAcknowledge, .googleOrdersGet:
            // 3000 queries per minute per quota bucket; 50 of burst keeps any minute at or under 3000.
            return .window(3_000, perSeconds: 60, burst: 50)
        case .googleVoidedPurchasesList:
            // 30 queries per 30 seconds and 6000 per day.
            return .window(30, perSeconds: 30, burst: 5, dailyBudget: 6_000)
        }
    }

    /// The row key for a shared bucket: `apple:<bundle id>:getTransactionInfo`, `google:<package>:voidedpurchases.list`.
    /// Apple limits apply per app and endpoint, Google quotas per project: pass the app or project accordingly.
    public func bucketKey(scope: String) -> String {
        let parts = rawValue.split(separator: ".", maxSplits: 1)
        return parts.count == 2 ? "\(parts[0]):\(scope):\(parts[1])" : "\(rawValue):\(scope)"
    }
}

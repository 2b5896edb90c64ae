import RateLimiting

/// One simulated store endpoint; the raw value names it in counters and `--limits-config`.
public enum SimulatorEndpoint: String, CaseIterable, Sendable, Hashable, Comparable {
    case appleSubscriptionStatuses = "apple.getAllSubscriptionStatuses"
    case appleTransactionInfo = "apple.getTransactionInfo"
    case appleTransactionHistory = "apple.getTransactionHistory"
    case appleNotificationHistory = "apple.getNotificationHistory"
    case appleRefundHistory = "apple.getRefundHistory"
    case appleOrderLookup = "apple.lookUpOrderId"
    case appleTestNotification = "apple.requestTestNotification"
    case appleTestNotificationStatus = "apple.getTestNotificationStatus"
    case appleFinanceReports = "apple.financeReports"
    case appleSalesReports = "apple.salesReports"
    case googleToken = "google.token"
    case googleSubscriptionGet = "google.subscriptionsv2.get"
    case googleAcknowledge = "google.subscriptions.acknowledge"
    case googleVoidedPurchases = "google.voidedpurchases.list"
    case googleOrderGet = "google.orders.get"
    case googleOrdersBatchGet = "google.orders.batchGet"
    case storageList = "storage.objects.list"
    case storageDownload = "storage.objects.get"
    /// No route matched.
    case unknown = "unknown"

    /// Orders endpoints by name, for stable counter output.
    public static func < (lhs: SimulatorEndpoint, rhs: SimulatorEndpoint) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True for App Store Server API and App Store Connect endpoints (Apple error format and JWT auth).
    public var isApple: Bool { rawValue.hasPrefix("apple.") }

    /// True for the App Store Server API endpoints whose responses carry signed payloads.
    public var signsPayloads: Bool {
        switch self {
        case .appleSubscriptionStatuses, .appleTransactionInfo, .appleTransactionHistory, .appleNotificationHistory,
             .appleRefundHistory, .appleOrderLookup, .appleTestNotificationStatus:
            return true
        default:
            return false
        }
    }

    /// The published limit in production (Apple, per app per endpoint; sandbox gets 10 %) or Google's quota.
    ///
    /// Report downloads and OAuth have no published per-second figure; the values here are the simulator's choice.
    public func defaultLimit(sandbox: Bool) -> RateLimit {
        let apple: Double
        switch self {
        case .appleSubscriptionStatuses, .appleTransactionInfo, .appleTransactionHistory, .appleNotificationHistory:
            apple = 50
        case .appleRefundHistory, .appleOrderLookup:
            apple = 10
        case .appleTestNotification, .appleTestNotificationStatus:
            apple = 1
        case .appleFinanceReports, .appleSalesReports:
            return RateLimit(perSecond: 1, capacity: 10)
        case .googleSubscriptionGet, .googleAcknowledge, .googleOrderGet, .googleOrdersBatchGet, .storageList, .storageDownload:
            return RateLimit(perSecond: 50)  // 3000 queries a minute per bucket
        case .googleVoidedPurchases:
            return RateLimit(perSecond: 1, capacity: 30)  // 30 queries per 30 seconds
        case .googleToken:
            return RateLimit(perSecond: 10)
        case .unknown:
            return RateLimit(perSecond: 1000)
        }
        return RateLimit(perSecond: sandbox ? apple / 10 : apple)
    }
}

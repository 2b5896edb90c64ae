import Foundation
import RateLimiting
import StoreCalls

/// One App Store Server API call: method, path, query and body exactly as Apple documents them.
public enum AppStoreEndpoint: Sendable, Hashable {
    case getAllSubscriptionStatuses(transactionId: String, statuses: [Int])
    case getTransactionInfo(transactionId: String)
    case getTransactionHistory(transactionId: String, query: TransactionHistoryQuery, revision: String?)
    case getNotificationHistory(NotificationHistoryRequest, paginationToken: String?)
    case getRefundHistory(transactionId: String, revision: String?)
    case lookUpOrderId(orderId: String)
    case requestTestNotification
    case getTestNotificationStatus(token: String)

    /// The rate-limit bucket this call draws from (Apple limits per endpoint).
    public var rateLimitEndpoint: StoreEndpoint {
        switch self {
        case .getAllSubscriptionStatuses: return .appleGetAllSubscriptionStatuses
        case .getTransactionInfo: return .appleGetTransactionInfo
        case .getTransactionHistory: return .appleGetTransactionHistory
        case .getNotificationHistory: return .appleGetNotificationHistory
        case .getRefundHistory: return .appleGetRefundHistory
        case .lookUpOrderId: return .appleLookUpOrderId
        case .requestTestNotification: return .appleRequestTestNotification
        case .getTestNotificationStatus: return .appleGetTestNotificationStatus
        }
    }

    /// HTTP method.
    public var method: String {
        switch self {
        case .getNotificationHistory, .requestTestNotification: return "POST"
        default: return "GET"
        }
    }

    /// Path and query, with path segments percent-encoded.
    public var pathAndQuery: String {
        switch self {
        case .getAllSubscriptionStatuses(let id, let statuses):
            return "/inApps/v1/subscriptions/\(Self.segment(id))" + Self.query(statuses.map { ("status", String($0)) })
        case .getTransactionInfo(let id):
            return "/inApps/v1/transactions/\(Self.segment(id))"
        case .getTransactionHistory(let id, let query, let revision):
            return "/inApps/v2/history/\(Self.segment(id))" + Self.query((revision.map { [("revision", $0)] } ?? []) + query.items)
        case .getNotificationHistory(_, let token):
            return "/inApps/v1/notifications/history" + Self.query(token.map { [("paginationToken", $0)] } ?? [])
        case .getRefundHistory(let id, let revision):
            return "/inApps/v2/refund/lookup/\(Self.segment(id))" + Self.query(revision.map { [("revision", $0)] } ?? [])
        case .lookUpOrderId(let orderId):
            return "/inApps/v1/lookup/\(Self.segment(orderId))"
        case .requestTestNotification:
            return "/inApps/v1/notifications/test"
        case .getTestNotificationStatus(let token):
            return "/inApps/v1/notifications/test/\(Self.segment(token))"
        }
    }

    /// JSON body (Get Notification History only).
    public func body() throws -> Data {
        guard case .getNotificationHistory(let request, _) = self else { return Data() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(request)
    }

    static let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func query(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { segment($0.0) + "=" + segment($0.1) }.joined(separator: "&")
    }
}

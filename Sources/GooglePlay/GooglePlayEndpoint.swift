import Foundation
import RateLimiting
import StoreCalls

/// One Google Play Developer API or Cloud Storage call, with Google's paths and query names.
public enum GooglePlayEndpoint: Sendable, Hashable {
    case getSubscriptionV2(packageName: String, token: String)
    case acknowledge(packageName: String, subscriptionId: String, token: String)
    /// `startTime`/`endTime` in ms; `type=1` includes subscriptions.
    case listVoidedPurchases(packageName: String, startTime: Int64, endTime: Int64?, maxResults: Int, pageToken: String?)
    /// Orders API: one order, or up to 1,000 distinct orders in one call.
    case getOrder(packageName: String, orderId: String)
    case batchGetOrders(packageName: String, orderIds: [String])
    case listObjects(bucket: String, prefix: String, pageToken: String?)
    case downloadObject(bucket: String, name: String)

    /// The quota bucket this call draws from; Cloud Storage downloads have none.
    public var rateLimitEndpoint: StoreEndpoint? {
        switch self {
        case .getSubscriptionV2: return .googleSubscriptionsV2Get
        case .acknowledge: return .googleSubscriptionsAcknowledge
        case .listVoidedPurchases: return .googleVoidedPurchasesList
        case .getOrder, .batchGetOrders: return .googleOrdersGet
        case .listObjects, .downloadObject: return nil
        }
    }

    /// A label for logs and `store_query` rows.
    public var label: String {
        switch self {
        case .listObjects: return "google.storage.list"
        case .downloadObject: return "google.storage.download"
        default: return rateLimitEndpoint?.rawValue ?? "google"
        }
    }

    /// HTTP method.
    public var method: String {
        if case .acknowledge = self { return "POST" }
        return "GET"
    }

    /// True for Cloud Storage calls (they go to the storage base URL).
    public var isStorage: Bool {
        switch self {
        case .listObjects, .downloadObject: return true
        default: return false
        }
    }

    /// Path and query, percent-encoded.
    public var pathAndQuery: String {
        let app = { (package: String) in "/androidpublisher/v3/applications/\(Self.encode(package))" }
        switch self {
        case .getSubscriptionV2(let package, let token):
            return app(package) + "/purchases/subscriptionsv2/tokens/\(Self.encode(token))"
        case .acknowledge(let package, let subscriptionId, let token):
            return app(package) + "/purchases/subscriptions/\(Self.encode(subscriptionId))/tokens/\(Self.encode(token)):acknowledge"
        case .listVoidedPurchases(let package, let start, let end, let maxResults, let pageToken):
            var items = [("startTime", String(start))]
            if let end { items.append(("endTime", String(end))) }
            items += [("maxResults", String(maxResults)), ("type", "1")]
            if let pageToken { items.append(("token", pageToken)) }
            return app(package) + "/purchases/voidedpurchases" + Self.query(items)
        case .getOrder(let package, let orderId):
            return app(package) + "/orders/\(Self.encode(orderId))"
        case .batchGetOrders(let package, let orderIds):
            return app(package) + "/orders:batchGet" + Self.query(orderIds.map { ("orderIds", $0) })
        case .listObjects(let bucket, let prefix, let pageToken):
            return "/storage/v1/b/\(Self.encode(bucket))/o" + Self.query([("prefix", prefix)] + (pageToken.map { [("pageToken", $0)] } ?? []))
        case .downloadObject(let bucket, let name):
            return "/storage/v1/b/\(Self.encode(bucket))/o/\(Self.encode(name))?alt=media"
        }
    }

    static let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    static func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }

    static func query(_ items: [(String, String)]) -> String {
        "?" + items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}

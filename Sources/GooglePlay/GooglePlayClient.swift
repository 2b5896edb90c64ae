import BillingCore
import Crypto
import Foundation
import HTTP
import StoreCalls

/// The Google Play Developer API client (subscriptionsv2, acknowledge, voided purchases) and report storage.
public final class GooglePlayClient: Sendable {
    public let configuration: GooglePlayConfiguration
    let tokens: GoogleAccessTokenProvider
    let executor: StoreCallExecutor

    /// A client using `tokens` for its bearer tokens.
    public init(configuration: GooglePlayConfiguration, tokens: GoogleAccessTokenProvider, executor: StoreCallExecutor) {
        self.configuration = configuration
        self.tokens = tokens
        self.executor = executor
    }

    /// subscriptionsv2.get for a purchase token, with the raw JSON (kept as the history rows' payload).
    public func subscription(token: String) throws(StoreCallError) -> (purchase: SubscriptionPurchaseV2, raw: Data) {
        let raw = try call(.getSubscriptionV2(packageName: configuration.packageName, token: token), expectsJSON: true)
        return (try Self.decode(SubscriptionPurchaseV2.self, from: raw), raw)
    }

    /// `orders.get`: one order's details and history, with the raw JSON (kept as the history rows' payload).
    public func order(id orderId: String) throws(StoreCallError) -> GoogleOrderAnswer {
        let raw = try call(.getOrder(packageName: configuration.packageName, orderId: orderId), expectsJSON: true)
        return GoogleOrderAnswer(order: try Self.decode(GoogleOrder.self, from: raw), raw: raw)
    }

    /// `orders.batchGet`: the orders of `orderIds` (distinct; called in chunks of 1,000, Google's maximum), each with its
    /// own JSON. Google fails the whole call when any ID is unknown; an answer missing a requested order is an
    /// undecodable answer, never skipped.
    public func orders(ids orderIds: [String]) throws(StoreCallError) -> [GoogleOrderAnswer] {
        var seen = Set<String>()
        let distinct = orderIds.filter { seen.insert($0).inserted }
        var answers: [GoogleOrderAnswer] = []
        for start in stride(from: 0, to: distinct.count, by: Self.batchGetLimit) {
            let chunk = Array(distinct[start..<min(start + Self.batchGetLimit, distinct.count)])
            let raw = try call(.batchGetOrders(packageName: configuration.packageName, orderIds: chunk), expectsJSON: true)
            let orders = try Self.decode(GoogleBatchGetOrdersResponse.self, from: raw).orders ?? []
            let items = try Self.decode(RawOrders.self, from: raw).orders ?? []
            let missing = Set(chunk).subtracting(orders.compactMap(\.orderId))
            guard missing.isEmpty, items.count == orders.count else {
                throw .store(GooglePlayAnswerError.undecodable(what: "BatchGetOrdersResponse",
                                                               detail: "no order for \(missing.sorted().joined(separator: ", "))"))
            }
            for (order, item) in zip(orders, items) {
                let raw: Data
                do { raw = try JSONEncoder().encode(item) } catch {
                    throw .store(GooglePlayAnswerError.undecodable(what: "BatchGetOrdersResponse",
                                                                   detail: "order \(order.orderId ?? "?") could not be kept as JSON: \(error)"))
                }
                answers.append(GoogleOrderAnswer(order: order, raw: raw))
            }
        }
        return answers
    }

    /// A batch answer's orders as plain JSON, to keep each one's payload.
    private struct RawOrders: Decodable { var orders: [JSONValue]? }

    /// Google's maximum number of order IDs in one `orders.batchGet`.
    public static let batchGetLimit = 1_000

    /// Acknowledges a subscription purchase (the product id is the line item's productId).
    public func acknowledge(subscriptionId: String, token: String) throws(StoreCallError) {
        _ = try call(.acknowledge(packageName: configuration.packageName, subscriptionId: subscriptionId, token: token), expectsJSON: false)
    }

    /// voidedpurchases.list (subscriptions included), every page.
    public func voidedPurchases(since start: Date, until end: Date? = nil, pageSize: Int = 1000) throws(StoreCallError) -> [VoidedPurchase] {
        var all: [VoidedPurchase] = []
        var pageToken: String?
        repeat {
            let endpoint = GooglePlayEndpoint.listVoidedPurchases(
                packageName: configuration.packageName, startTime: Int64((start.timeIntervalSince1970 * 1000).rounded()),
                endTime: end.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }, maxResults: pageSize, pageToken: pageToken)
            let page = try Self.decode(VoidedPurchasesResponse.self, from: try call(endpoint, expectsJSON: true))
            all += page.voidedPurchases ?? []
            let next = page.tokenPagination?.nextPageToken
            pageToken = (next?.isEmpty ?? true) || next == pageToken ? nil : next
        } while pageToken != nil
        return all
    }

    /// Lists report objects under a prefix (e.g. `earnings/`), every page; a page that does not decode or a missing
    /// bucket throws `GooglePlayAnswerError` (a partial listing would look like a complete one).
    public func reportObjects(prefix: String) throws(StoreCallError) -> [StorageObject] {
        guard let bucket = configuration.reportBucket else { throw .store(GooglePlayAnswerError.noReportBucket) }
        var objects: [StorageObject] = []
        var pageToken: String?
        repeat {
            let data = try call(.listObjects(bucket: bucket, prefix: prefix, pageToken: pageToken), expectsJSON: true)
            let page = try Self.decode(StorageObjectList.self, from: data)
            objects += page.items ?? []
            pageToken = page.nextPageToken
        } while pageToken != nil
        return objects
    }

    /// Downloads one report object's bytes; without a bucket throws `GooglePlayAnswerError.noReportBucket`.
    public func downloadReport(name: String) throws(StoreCallError) -> Data {
        guard let bucket = configuration.reportBucket else { throw .store(GooglePlayAnswerError.noReportBucket) }
        return try call(.downloadObject(bucket: bucket, name: name), expectsJSON: false)
    }

    /// Decodes a 2xx body; a body that does not decode is `GooglePlayAnswerError.undecodable`, never skipped.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(StoreCallError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .store(GooglePlayAnswerError.undecodable(what: String(describing: type), detail: String(describing: error)))
        }
    }
}

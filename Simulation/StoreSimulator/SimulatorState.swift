import Crypto
import Foundation
import SeededRandom
import StoreTruth

/// The simulator's mutable world: the truth, its indices, issued tokens and the request counter, behind one lock.
final class SimulatorState: @unchecked Sendable {
    /// Where a transaction sits: subscription index and transaction index.
    typealias Position = (subscription: Int, transaction: Int)

    private let lock = NSLock()
    private var truth: StoreTruth
    private var transactions: [String: Position] = [:]
    private var orders: [String: [Position]] = [:]
    private var tokens: [String: Int] = [:]
    /// Google orders: token index and the order's index in it.
    private var googleOrders: [String: (token: Int, order: Int)] = [:]
    private var accessTokens: [String: (expires: Date, scopes: Set<String>)] = [:]
    private var testNotifications: [String: Int] = [:]
    private var requestCount: UInt64 = 0
    private var historyMatches: [String: [Int]] = [:]
    private var identifiers: SplitMix64
    /// The Google package the truth describes.
    let packageName: String

    init(truth: StoreTruth, seed: UInt64) {
        self.truth = truth
        packageName = truth.google.packageName
        identifiers = SplitMix64(seed: seed ^ 0x1D_E417_1F1E)
        for (s, subscription) in truth.apple.subscriptions.enumerated() {
            for (t, transaction) in subscription.transactions.enumerated() {
                if let id = transaction.text("transactionId") { transactions[id] = (s, t) }
                if let order = transaction.text("orderId") ?? transaction.text("webOrderLineItemId") {
                    orders[order, default: []].append((s, t))
                }
            }
        }
        for (index, subscription) in truth.google.subscriptions.enumerated() {
            tokens[subscription.purchaseToken] = index
            for (position, order) in subscription.orders.enumerated() {
                if let id = order.text("orderId") { googleOrders[id] = (index, position) }
            }
        }
    }

    /// A copy of the truth as it is now (mutations included).
    var snapshot: StoreTruth { lock.withLock { truth } }

    /// Numbers requests 0, 1, 2, … in arrival order.
    func nextRequestNumber() -> UInt64 {
        lock.withLock {
            defer { requestCount += 1 }
            return requestCount
        }
    }

    /// The subscription holding transaction `id`, and the transaction's index in it.
    func appleSubscription(containing id: String) -> (AppleSubscriptionTruth, Int)? {
        lock.withLock {
            guard let position = transactions[id] else { return nil }
            return (truth.apple.subscriptions[position.subscription], position.transaction)
        }
    }

    /// Every transaction whose order id (`orderId`, else `webOrderLineItemId`) is `orderId`.
    func appleTransactions(inOrder orderId: String) -> [JSONValue] {
        lock.withLock {
            (orders[orderId] ?? []).map { truth.apple.subscriptions[$0.subscription].transactions[$0.transaction] }
        }
    }

    /// All notifications, oldest first as stored.
    var appleNotifications: [AppleNotificationTruth] { lock.withLock { truth.apple.notifications } }

    /// The notifications and the offsets of those a history query matches (in page order), computed once per query
    /// (`key`: its filters and environment) and notification count, so paging a long window does not filter and sort
    /// the whole history again for every page of 20.
    func appleNotificationHistory(key: String, matching compute: ([AppleNotificationTruth]) -> [Int])
        -> (notifications: [AppleNotificationTruth], matches: [Int]) {
        let notifications = appleNotifications
        let cacheKey = "\(notifications.count)|\(key)"
        if let cached = lock.withLock({ historyMatches[cacheKey] }) { return (notifications, cached) }
        let matches = compute(notifications)
        lock.withLock {
            if historyMatches.count >= 16 { historyMatches.removeAll() }
            historyMatches[cacheKey] = matches
        }
        return (notifications, matches)
    }

    /// Appends a notification (Request a Test Notification) and returns a new token for it.
    func addTestNotification(_ notification: AppleNotificationTruth, nowMilliseconds: Int64) -> String {
        lock.withLock {
            truth.apple.notifications.append(notification)
            let token = Self.uuid(&identifiers) + "_\(nowMilliseconds)"
            testNotifications[token] = truth.apple.notifications.count - 1
            return token
        }
    }

    /// The notification a test token names.
    func testNotification(_ token: String) -> AppleNotificationTruth? {
        lock.withLock { testNotifications[token].map { truth.apple.notifications[$0] } }
    }

    /// A fresh UUID string drawn from the seeded generator.
    func makeUUID() -> String {
        lock.withLock { Self.uuid(&identifiers) }
    }

    /// The Google token's truth.
    func googleSubscription(_ token: String) -> GoogleSubscriptionTruth? {
        lock.withLock { tokens[token].map { truth.google.subscriptions[$0] } }
    }

    /// The Google order `orderId` (an Orders API `Order`) and whether its token can still be queried.
    func googleOrder(_ orderId: String) -> (order: JSONValue, queryable: Bool)? {
        lock.withLock {
            googleOrders[orderId].map { (truth.google.subscriptions[$0.token].orders[$0.order], truth.google.subscriptions[$0.token].queryable) }
        }
    }

    /// Applies `change` to the Google token's purchase under the lock; returns what `change` returns.
    func updateGooglePurchase<T>(_ token: String, _ change: (inout JSONValue) -> T) -> T? {
        lock.withLock {
            guard let index = tokens[token] else { return nil }
            return change(&truth.google.subscriptions[index].purchase)
        }
    }

    /// All voided purchases as stored.
    var googleVoidedPurchases: [JSONValue] { lock.withLock { truth.google.voidedPurchases } }

    /// Adds a voided purchase, kept in voidedTimeMillis order.
    func addGoogleVoidedPurchase(_ item: JSONValue) {
        lock.withLock {
            let time = item.integer("voidedTimeMillis") ?? 0
            let index = truth.google.voidedPurchases.firstIndex { ($0.integer("voidedTimeMillis") ?? 0) > time }
                ?? truth.google.voidedPurchases.endIndex
            truth.google.voidedPurchases.insert(item, at: index)
        }
    }

    /// True when `token` is a subscription purchase token.
    func isSubscriptionToken(_ token: String) -> Bool { lock.withLock { tokens[token] != nil } }

    /// Issues an access token valid until `expires` for `scopes`.
    func issueAccessToken(expires: Date, scopes: Set<String>) -> String {
        lock.withLock {
            let token = "ya29.sim-" + String(identifiers.next(), radix: 16) + String(identifiers.next(), radix: 16)
            accessTokens[token] = (expires, scopes)
            return token
        }
    }

    /// The scopes of a token that exists and has not expired at `now`.
    func accessTokenScopes(_ token: String, now: Date) -> Set<String>? {
        lock.withLock {
            guard let entry = accessTokens[token], entry.expires > now else { return nil }
            return entry.scopes
        }
    }

    private static func uuid(_ generator: inout SplitMix64) -> String {
        let high = generator.next()
        let low = generator.next()
        let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        let c = Array(hex)
        return [String(c[0..<8]), String(c[8..<12]), String(c[12..<16]), String(c[16..<20]), String(c[20..<32])]
            .joined(separator: "-")
    }
}

extension String {
    /// Left-pads with zeros to `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

import Crypto
import Foundation
import StoreTruth

/// A small, fully known truth: three Apple subscriptions, 46 notifications, three Google tokens, voided purchases.
public enum TruthFixture {
    public static let now = Date(timeIntervalSince1970: 1_772_323_200)  // 2026-03-01T00:00:00Z
    public static let nowMs: Int64 = 1_772_323_200_000
    public static let day: Int64 = 86_400_000
    public static let bundleId = "com.example.simulated"
    public static let appAppleId: Int64 = 1_234_567_890
    public static let packageName = "com.example.simulated.android"

    /// Subscription A: active, 3 monthly transactions, ids 1000000000000001…3.
    public static let subscriptionA = subscription(original: 1_000_000_000_000_001, count: 3, status: 1, product: "com.example.monthly",
                                            group: "21000001", start: nowMs - 80 * day)
    /// Subscription B: expired, 25 transactions (ids 2000000000000001…25); #10 and #24 revoked; #7 has orderId MK5TTTVWJH.
    public static let subscriptionB = subscription(original: 2_000_000_000_000_001, count: 25, status: 2, product: "com.example.weekly",
                                            group: "21000002", start: nowMs - 200 * day, revoked: [10, 24], orderOf: [7: "MK5TTTVWJH"])
    /// Subscription C: grace period, 2 yearly transactions.
    public static let subscriptionC = subscription(original: 3_000_000_000_000_001, count: 2, status: 4, product: "com.example.yearly",
                                            group: "21000001", start: nowMs - 400 * day)

    public static func transaction(_ original: Int64, _ index: Int, product: String, group: String, purchase: Int64,
                            revoked: Bool, orderId: String?) -> JSONValue {
        var members: [String: JSONValue] = [
            "originalTransactionId": .string(String(original)), "transactionId": .string(String(original + Int64(index))),
            "webOrderLineItemId": .string(String(original + 50_000_000 + Int64(index))), "bundleId": .string(bundleId),
            "productId": .string(product), "subscriptionGroupIdentifier": .string(group), "purchaseDate": .integer(purchase),
            "originalPurchaseDate": .integer(purchase - Int64(index) * 7 * day), "expiresDate": .integer(purchase + 7 * day),
            "quantity": .integer(1), "type": .string("Auto-Renewable Subscription"), "inAppOwnershipType": .string("PURCHASED"),
            "signedDate": .integer(purchase), "environment": .string("Production"), "transactionReason": .string(index == 0 ? "PURCHASE" : "RENEWAL"),
            "storefront": .string("USA"), "currency": .string("USD"), "price": .integer(4990),
        ]
        if revoked {
            members["revocationDate"] = .integer(purchase + day)
            members["revocationReason"] = .integer(0)
        }
        if let orderId { members["orderId"] = .string(orderId) }
        return .object(members)
    }

    public static func subscription(original: Int64, count: Int, status: Int, product: String, group: String, start: Int64,
                             revoked: Set<Int> = [], orderOf: [Int: String] = [:]) -> AppleSubscriptionTruth {
        let transactions = (0..<count).map {
            transaction(original, $0, product: product, group: group, purchase: start + Int64($0) * 7 * day,
                        revoked: revoked.contains($0), orderId: orderOf[$0])
        }
        let renewal: JSONValue = .object([
            "originalTransactionId": .string(String(original)), "productId": .string(product),
            "autoRenewProductId": .string(product), "autoRenewStatus": .integer(status == 1 ? 1 : 0),
            "signedDate": .integer(nowMs - day), "environment": .string("Production"), "bundleId": .string(bundleId),
        ])
        return AppleSubscriptionTruth(originalTransactionId: String(original), subscriptionGroupIdentifier: group,
                                      status: status, transactions: transactions, renewalInfo: renewal)
    }

    /// 45 notifications 2 days apart within the last 100 days (every 10th failed), plus one 200 days old.
    public static var notifications: [AppleNotificationTruth] {
        var list: [AppleNotificationTruth] = []
        let old = notification(index: 99, date: nowMs - 200 * day, type: "SUBSCRIBED", failed: false)
        list.append(old)
        for index in 0..<45 {
            let type = index % 3 == 0 ? "SUBSCRIBED" : "DID_RENEW"
            list.append(notification(index: index, date: nowMs - 100 * day + Int64(index) * 2 * day, type: type,
                                     failed: index % 10 == 9))
        }
        return list
    }

    public static func notification(index: Int, date: Int64, type: String, failed: Bool) -> AppleNotificationTruth {
        let subscription = index % 2 == 0 ? subscriptionA : subscriptionB
        let payload: JSONValue = .object([
            "notificationType": .string(type), "notificationUUID": .string("00000000-0000-0000-0000-\(String(index).leftPad(12))"),
            "version": .string("2.0"), "signedDate": .integer(date),
            "data": .object(["environment": .string("Production"), "appAppleId": .integer(appAppleId),
                             "bundleId": .string(bundleId), "bundleVersion": .string("1.0"), "status": .integer(1)]),
        ])
        let attempts: [JSONValue] = [.object(["attemptDate": .integer(date + 1000),
                                              "sendAttemptResult": .string(failed ? "TIMED_OUT" : "SUCCESS")])]
        return AppleNotificationTruth(payload: payload, transactionInfo: subscription.transactions[0],
                                      renewalInfo: subscription.renewalInfo, sendAttempts: attempts)
    }

    public static func googlePurchase(state: String, acknowledged: Bool, product: String = "premium_monthly") -> JSONValue {
        .object([
            "kind": .string("androidpublisher#subscriptionPurchaseV2"), "regionCode": .string("US"),
            "startTime": .string("2026-02-01T10:00:00.123Z"), "subscriptionState": .string(state),
            "acknowledgementState": .string(acknowledged ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING"),
            "lineItems": .array([.object([
                "productId": .string(product), "expiryTime": .string("2026-03-01T10:00:00Z"),
                "latestSuccessfulOrderId": .string("GPA.1111-2222-3333-44444"),
                "autoRenewingPlan": .object(["autoRenewEnabled": .bool(true), "recurringPrice": .object([
                    "currencyCode": .string("USD"), "units": .string("4"), "nanos": .integer(990_000_000)])]),
            ])]),
        ])
    }

    /// Voided purchases: 3 of subscription tokens, 2 one-time, one 40 days old (outside the default window).
    public static var voided: [JSONValue] {
        let items: [(String, Int64)] = [("token-active", 40), ("one-time-1", 20), ("token-expired", 10), ("one-time-2", 5),
                                        ("token-active", 2), ("token-pending", 1)]
        return items.enumerated().map { index, item in
            .object(["kind": .string("androidpublisher#voidedPurchase"), "purchaseToken": .string(item.0),
                     "orderId": .string("GPA.9999-0000-0000-0000\(index)"),
                     "purchaseTimeMillis": .string(String(nowMs - 60 * day)),
                     "voidedTimeMillis": .string(String(nowMs - item.1 * day)),
                     "voidedSource": .integer(0), "voidedReason": .integer(Int64(index % 8))])
        }
    }

    /// Orders API orders of token-active: the signup order (processed) and its first renewal (half refunded).
    public static var activeOrders: [JSONValue] {
        func money(_ units: String, _ nanos: Int64) -> JSONValue {
            .object(["currencyCode": .string("USD"), "units": .string(units), "nanos": .integer(nanos)])
        }
        func order(_ id: String, daysAgo: Int64, history: [String: JSONValue], state: String) -> JSONValue {
            let time = JSONValue.string(rfc3339(nowMs - daysAgo * day))
            var events = history
            events["processedEvent"] = .object(["eventTime": time])
            return .object([
                "orderId": .string(id), "purchaseToken": .string("token-active"), "state": .string(state), "createTime": time,
                "lastEventTime": time, "total": money("9", 990_000_000), "tax": money("0", 0),
                "lineItems": .array([.object(["productId": .string("premium_monthly"), "total": money("9", 990_000_000),
                                              "subscriptionDetails": .object(["basePlanId": .string("monthly")])])]),
                "orderHistory": .object(events),
            ])
        }
        let partial: JSONValue = .object([
            "createTime": .string(rfc3339(nowMs - 2 * day)), "processTime": .string(rfc3339(nowMs - 2 * day)),
            "state": .string("PROCESSED_SUCCESSFULLY"),
            "refundDetails": .object(["total": money("4", 990_000_000), "tax": money("0", 0)]),
        ])
        return [order("GPA.1111-2222-3333-44444", daysAgo: 40, history: [:], state: "PROCESSED"),
                order("GPA.1111-2222-3333-44444..0", daysAgo: 10, history: ["partialRefundEvents": .array([partial])],
                      state: "PARTIALLY_REFUNDED")]
    }

    /// `ms` as RFC 3339 UTC with whole seconds.
    static func rfc3339(_ ms: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// The whole truth.
    public static func truth(reportFiles: [String] = []) -> StoreTruth {
        StoreTruth(
            apple: AppleTruth(bundleId: bundleId, appAppleId: appAppleId, environment: "Production",
                              subscriptions: [subscriptionA, subscriptionB, subscriptionC], notifications: notifications),
            google: GoogleTruth(packageName: packageName, subscriptions: [
                GoogleSubscriptionTruth(purchaseToken: "token-active", purchase: googlePurchase(state: "SUBSCRIPTION_STATE_ACTIVE", acknowledged: false),
                                        orders: activeOrders),
                GoogleSubscriptionTruth(purchaseToken: "token-pending", purchase: googlePurchase(state: "SUBSCRIPTION_STATE_PENDING", acknowledged: false)),
                GoogleSubscriptionTruth(purchaseToken: "token-expired", purchase: googlePurchase(state: "SUBSCRIPTION_STATE_EXPIRED", acknowledged: true),
                                        queryable: false, orders: [.object(["orderId": .string("GPA.5555-0000-0000-00000"),
                                                                            "purchaseToken": .string("token-expired")])]),
            ], voidedPurchases: voided),
            reportFiles: reportFiles)
    }
}

extension String {
    /// Left-pads with zeros to `width` characters.
    public func leftPad(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

import Crypto
import Foundation

/// What the stores know: the truth the store simulator serves and the world generator writes.
///
/// Payloads are kept as decoded JSON exactly as the store APIs spell them (Apple's
/// JWSTransactionDecodedPayload / JWSRenewalInfoDecodedPayload / ResponseBodyV2DecodedPayload,
/// Google's SubscriptionPurchaseV2 and voided purchases); the simulator signs Apple payloads when it
/// serves them. On disk it is a folder (see `StoreTruthFolder`).
public struct StoreTruth: Sendable {
    public var apple: AppleTruth
    public var google: GoogleTruth
    /// Report files the download endpoints serve, by path relative to the folder's `reports/`.
    public var reportFiles: [String]

    /// Makes a truth.
    public init(apple: AppleTruth, google: GoogleTruth, reportFiles: [String] = []) {
        self.apple = apple
        self.google = google
        self.reportFiles = reportFiles
    }
}

/// Apple's side: one app's configuration, its subscriptions and the notifications it sent.
public struct AppleTruth: Sendable, Codable {
    public var bundleId: String
    public var appAppleId: Int64
    /// "Production" or "Sandbox".
    public var environment: String
    public var subscriptions: [AppleSubscriptionTruth]
    /// Every notification sent, oldest first (Get Notification History serves these).
    public var notifications: [AppleNotificationTruth]

    /// Makes Apple's truth.
    public init(bundleId: String, appAppleId: Int64, environment: String,
                subscriptions: [AppleSubscriptionTruth] = [], notifications: [AppleNotificationTruth] = []) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.subscriptions = subscriptions
        self.notifications = notifications
    }
}

/// One Apple subscription (an originalTransactionId) as Get All Subscription Statuses and
/// Get Transaction History see it.
public struct AppleSubscriptionTruth: Sendable, Codable {
    public var originalTransactionId: String
    public var subscriptionGroupIdentifier: String
    /// 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public var status: Int
    /// Decoded transactions (JWSTransactionDecodedPayload), oldest first; the last is the latest.
    public var transactions: [JSONValue]
    /// Decoded renewal info (JWSRenewalInfoDecodedPayload).
    public var renewalInfo: JSONValue

    /// Makes a subscription's truth.
    public init(originalTransactionId: String, subscriptionGroupIdentifier: String, status: Int,
                transactions: [JSONValue], renewalInfo: JSONValue) {
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.status = status
        self.transactions = transactions
        self.renewalInfo = renewalInfo
    }
}

/// One App Store Server Notification V2 that Apple sent.
public struct AppleNotificationTruth: Sendable, Codable {
    /// The decoded ResponseBodyV2DecodedPayload without `data.signedTransactionInfo` /
    /// `data.signedRenewalInfo`; the simulator signs `transactionInfo` / `renewalInfo` into them.
    public var payload: JSONValue
    public var transactionInfo: JSONValue?
    public var renewalInfo: JSONValue?
    /// Delivery attempts: `{attemptDate (ms), sendAttemptResult}` objects.
    public var sendAttempts: [JSONValue]

    /// Makes a notification's truth.
    public init(payload: JSONValue, transactionInfo: JSONValue?, renewalInfo: JSONValue?, sendAttempts: [JSONValue]) {
        self.payload = payload
        self.transactionInfo = transactionInfo
        self.renewalInfo = renewalInfo
        self.sendAttempts = sendAttempts
    }
}

/// Google's side: one package's subscriptions (by purchase token) and voided purchases.
public struct GoogleTruth: Sendable, Codable {
    public var packageName: String
    public var subscriptions: [GoogleSubscriptionTruth]
    /// Voided purchases (`voidedpurchases.list` items), ordered by voidedTimeMillis.
    public var voidedPurchases: [JSONValue]

    /// Makes Google's truth.
    public init(packageName: String, subscriptions: [GoogleSubscriptionTruth] = [], voidedPurchases: [JSONValue] = []) {
        self.packageName = packageName
        self.subscriptions = subscriptions
        self.voidedPurchases = voidedPurchases
    }
}

/// One Google purchase token and its SubscriptionPurchaseV2 as `subscriptionsv2.get` returns it.
public struct GoogleSubscriptionTruth: Sendable, Codable {
    public var purchaseToken: String
    /// The SubscriptionPurchaseV2 resource.
    public var purchase: JSONValue
    /// Tokens more than 60 days past expiry answer HTTP 410.
    public var queryable: Bool
    /// The token's orders as the Orders API returns them (`Order` resources: processed, refunded, partly refunded),
    /// oldest first; empty in truths written before the Orders API was served.
    public var orders: [JSONValue]

    /// Makes a token's truth.
    public init(purchaseToken: String, purchase: JSONValue, queryable: Bool = true, orders: [JSONValue] = []) {
        self.purchaseToken = purchaseToken
        self.purchase = purchase
        self.queryable = queryable
        self.orders = orders
    }

    enum CodingKeys: String, CodingKey { case purchaseToken, purchase, queryable, orders }

    /// Decodes a token's line; `orders` may be absent (older truths).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        purchaseToken = try container.decode(String.self, forKey: .purchaseToken)
        purchase = try container.decode(JSONValue.self, forKey: .purchase)
        queryable = try container.decode(Bool.self, forKey: .queryable)
        orders = try container.decodeIfPresent([JSONValue].self, forKey: .orders) ?? []
    }
}

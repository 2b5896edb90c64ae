import Crypto

/// One Google purchase token's SubscriptionPurchaseV2 as the generator tracks it; renders Google's JSON.
struct GoogleTokenState {
    var token: String
    var linkedToken: String?
    var state = "SUBSCRIPTION_STATE_PENDING"
    var startMs: Int64?
    var expiryMs: Int64?
    var autoRenew = true
    var recurringMicros: Int64
    var currency: String
    var productId: String
    var basePlanId: String
    var offerId: String?
    var trial = false
    var orderBase: String
    /// nil: the initial order is the latest successful one; n: renewal order `..n`.
    var renewals: Int?
    var hasOrder = false
    var acknowledged = false
    var cancelContext: JSONValue?
    var priceChange: (newMicros: Int64, mode: String, state: String, expectedMs: Int64)?
    var region: String
    var accountToken: String
    var isTest: Bool

    /// The latest successful order id.
    var latestOrderId: String? {
        guard hasOrder else { return nil }
        return renewals.map { "\(orderBase)..\($0)" } ?? orderBase
    }

    func json(packageName: String) -> JSONValue {
        var plan: [String: JSONValue] = ["recurringPrice": Self.money(recurringMicros, currency)]
        if autoRenew { plan["autoRenewEnabled"] = .bool(true) }
        if let change = priceChange {
            plan["priceChangeDetails"] = .object([
                "newPrice": Self.money(change.newMicros, currency), "priceChangeMode": .string(change.mode),
                "priceChangeState": .string(change.state), "expectedNewPriceChargeTime": .string(WorldClock.rfc3339(change.expectedMs)),
            ])
        }
        var offer: [String: JSONValue] = ["basePlanId": .string(basePlanId), "offerTags": .array([.string("standard")])]
        if let offerId { offer["offerId"] = .string(offerId) }
        var item: [String: JSONValue] = [
            "productId": .string(productId), "autoRenewingPlan": .object(plan), "offerDetails": .object(offer),
            "offerPhase": .object([trial ? "freeTrial" : "basePrice": .object([:])]),
        ]
        if let expiryMs { item["expiryTime"] = .string(WorldClock.rfc3339(expiryMs)) }
        if let order = latestOrderId { item["latestSuccessfulOrderId"] = .string(order) }
        var members: [String: JSONValue] = [
            "kind": .string("androidpublisher#subscriptionPurchaseV2"), "regionCode": .string(region),
            "subscriptionState": .string(state),
            "acknowledgementState": .string(acknowledged ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING"),
            "externalAccountIdentifiers": .object(["obfuscatedExternalAccountId": .string(accountToken)]),
            "lineItems": .array([.object(item)]),
        ]
        if let startMs { members["startTime"] = .string(WorldClock.rfc3339(startMs)) }
        if let order = latestOrderId { members["latestOrderId"] = .string(order) }
        if let linkedToken { members["linkedPurchaseToken"] = .string(linkedToken) }
        if let cancelContext { members["canceledStateContext"] = cancelContext }
        if isTest { members["testPurchase"] = .object([:]) }
        return .object(members)
    }

    /// Google Money `{currencyCode, units, nanos}` from micros.
    static func money(_ micros: Int64, _ currency: String) -> JSONValue {
        .object(["currencyCode": .string(currency), "units": .string(String(micros / 1_000_000)),
                 "nanos": .integer((micros % 1_000_000) * 1_000)])
    }
}

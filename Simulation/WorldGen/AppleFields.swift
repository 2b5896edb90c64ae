import BillingCore
import Crypto

/// An Apple transaction as the generator tracks it; renders Apple's JSON and the BillingCore model.
struct AppleTransactionFields {
    var transactionId: String
    var originalTransactionId: String
    var webOrderLineItemId: String
    var productId: String
    var purchaseMs: Int64
    var originalPurchaseMs: Int64
    var expiresMs: Int64
    var signedMs: Int64
    var appAccountToken: String
    var familyShared: Bool
    var environment: String
    var reason: String
    var storefront: String
    var storefrontId: String
    var currency: String
    var priceMilli: Int64
    var trial: Bool
    /// An offer code's reference name when the (free) period was redeemed with a code (`offerType` 3).
    var offerCode: String? = nil
    var isUpgraded = false
    var revocationMs: Int64?
    var revocationType: String?
    var revocationReason: Int?
    /// A prorated refund's share, in thousandths of a percent.
    var revocationPercentage: Int?

    func json(bundleId: String, group: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "transactionId": .string(transactionId), "originalTransactionId": .string(originalTransactionId),
            "webOrderLineItemId": .string(webOrderLineItemId), "bundleId": .string(bundleId), "productId": .string(productId),
            "subscriptionGroupIdentifier": .string(group), "purchaseDate": .integer(purchaseMs),
            "originalPurchaseDate": .integer(originalPurchaseMs), "expiresDate": .integer(expiresMs), "quantity": .integer(1),
            "type": .string("Auto-Renewable Subscription"), "appAccountToken": .string(appAccountToken),
            "inAppOwnershipType": .string(familyShared ? "FAMILY_SHARED" : "PURCHASED"), "signedDate": .integer(signedMs),
            "environment": .string(environment), "transactionReason": .string(reason), "storefront": .string(storefront),
            "storefrontId": .string(storefrontId), "price": .integer(priceMilli), "currency": .string(currency),
        ]
        if trial {
            members["offerType"] = .integer(1)
            members["offerDiscountType"] = .string("FREE_TRIAL")
            members["offerPeriod"] = .string("P1W")
        } else if let offerCode {
            members["offerType"] = .integer(3)
            members["offerIdentifier"] = .string(offerCode)
            members["offerDiscountType"] = .string("FREE_TRIAL")
            members["offerPeriod"] = .string("P1W")
        }
        if isUpgraded { members["isUpgraded"] = .bool(true) }
        if let revocationMs {
            members["revocationDate"] = .integer(revocationMs)
            members["revocationReason"] = .integer(Int64(revocationReason ?? 0))
            members["revocationType"] = .string(revocationType ?? "REFUND_FULL")
            if let revocationPercentage { members["revocationPercentage"] = .integer(Int64(revocationPercentage)) }
        }
        return .object(members)
    }

    func model(bundleId: String, group: String) -> JWSTransactionDecodedPayload {
        var model = JWSTransactionDecodedPayload()
        model.transactionId = transactionId
        model.originalTransactionId = originalTransactionId
        model.webOrderLineItemId = webOrderLineItemId
        model.bundleId = bundleId
        model.productId = productId
        model.subscriptionGroupIdentifier = group
        model.purchaseDate = AppleTimestamp(milliseconds: Double(purchaseMs))
        model.originalPurchaseDate = AppleTimestamp(milliseconds: Double(originalPurchaseMs))
        model.expiresDate = AppleTimestamp(milliseconds: Double(expiresMs))
        model.quantity = 1
        model.type = "Auto-Renewable Subscription"
        model.appAccountToken = appAccountToken
        model.inAppOwnershipType = familyShared ? "FAMILY_SHARED" : "PURCHASED"
        model.signedDate = AppleTimestamp(milliseconds: Double(signedMs))
        model.rawEnvironment = environment
        model.rawTransactionReason = reason
        model.storefront = storefront
        model.storefrontId = storefrontId
        model.price = priceMilli
        model.currency = currency
        if trial {
            model.rawOfferType = 1
            model.rawOfferDiscountType = "FREE_TRIAL"
            model.offerPeriod = "P1W"
        } else if let offerCode {
            model.rawOfferType = 3
            model.offerIdentifier = offerCode
            model.rawOfferDiscountType = "FREE_TRIAL"
            model.offerPeriod = "P1W"
        }
        if isUpgraded { model.isUpgraded = true }
        if let revocationMs {
            model.revocationDate = AppleTimestamp(milliseconds: Double(revocationMs))
            model.revocationReason = revocationReason ?? 0
            model.rawRevocationType = revocationType ?? "REFUND_FULL"
            model.revocationPercentage = revocationPercentage
        }
        return model
    }
}

/// Apple renewal info as the generator tracks it.
struct AppleRenewalFields {
    var originalTransactionId: String
    var productId: String
    var autoRenewProductId: String
    var autoRenewOn: Bool
    var signedMs: Int64
    var environment: String
    var recentStartMs: Int64
    var renewalMs: Int64
    var currency: String
    var renewalPriceMilli: Int64
    var appAccountToken: String
    var expirationIntent: Int?
    var inBillingRetry = false
    var graceExpiresMs: Int64?
    var priceIncreaseStatus: Int?

    func json() -> JSONValue {
        var members: [String: JSONValue] = [
            "originalTransactionId": .string(originalTransactionId), "productId": .string(productId),
            "autoRenewProductId": .string(autoRenewProductId), "autoRenewStatus": .integer(autoRenewOn ? 1 : 0),
            "signedDate": .integer(signedMs), "environment": .string(environment),
            "recentSubscriptionStartDate": .integer(recentStartMs), "renewalDate": .integer(renewalMs),
            "currency": .string(currency), "renewalPrice": .integer(renewalPriceMilli), "appAccountToken": .string(appAccountToken),
        ]
        if let expirationIntent { members["expirationIntent"] = .integer(Int64(expirationIntent)) }
        if inBillingRetry { members["isInBillingRetryPeriod"] = .bool(true) }
        if let graceExpiresMs { members["gracePeriodExpiresDate"] = .integer(graceExpiresMs) }
        if let priceIncreaseStatus { members["priceIncreaseStatus"] = .integer(Int64(priceIncreaseStatus)) }
        return .object(members)
    }

    func model() -> JWSRenewalInfoDecodedPayload {
        var model = JWSRenewalInfoDecodedPayload()
        model.originalTransactionId = originalTransactionId
        model.productId = productId
        model.autoRenewProductId = autoRenewProductId
        model.autoRenewStatus = autoRenewOn ? 1 : 0
        model.signedDate = AppleTimestamp(milliseconds: Double(signedMs))
        model.rawEnvironment = environment
        model.recentSubscriptionStartDate = AppleTimestamp(milliseconds: Double(recentStartMs))
        model.renewalDate = AppleTimestamp(milliseconds: Double(renewalMs))
        model.currency = currency
        model.renewalPrice = renewalPriceMilli
        model.appAccountToken = appAccountToken
        model.rawExpirationIntent = expirationIntent
        if inBillingRetry { model.isInBillingRetryPeriod = true }
        model.gracePeriodExpiresDate = graceExpiresMs.map { AppleTimestamp(milliseconds: Double($0)) }
        model.rawPriceIncreaseStatus = priceIncreaseStatus
        return model
    }
}

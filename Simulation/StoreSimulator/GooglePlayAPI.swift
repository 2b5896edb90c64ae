import Crypto
import Foundation
import HTTP

/// subscriptionsv2.get, subscriptions.acknowledge and voidedpurchases.list.
enum GooglePlayAPI {
    static let pending = "SUBSCRIPTION_STATE_PENDING"
    static let acknowledged = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"

    /// 404 for another package or an unknown token, 410 for a token no longer queryable.
    static func lookup(_ context: RequestContext, package: String, token: String) -> HTTPResponse? {
        guard package == context.state.packageName,
              let subscription = context.state.googleSubscription(token) else {
            return Responses.google(404, "NOT_FOUND", "The purchase token was not found.", reason: "purchaseTokenNotFound")
        }
        guard subscription.queryable else {
            return Responses.google(410, "NOT_FOUND",
                                    "The subscription purchase is no longer available for query because it has been expired for too long.",
                                    reason: "subscriptionPurchaseNoLongerAvailable")
        }
        return nil
    }

    /// GET …/applications/{packageName}/purchases/subscriptionsv2/tokens/{token}
    static func subscription(_ context: RequestContext) -> HTTPResponse {
        let (package, token) = (context.route.parameters[0], context.route.parameters[1])
        if let failure = lookup(context, package: package, token: token) { return failure }
        guard let purchase = context.state.googleSubscription(token)?.purchase else {
            return Responses.google(404, "NOT_FOUND", "The purchase token was not found.", reason: "purchaseTokenNotFound")
        }
        return Responses.json(200, purchase)
    }

    /// POST …/purchases/subscriptions/{subscriptionId}/tokens/{token}:acknowledge — sets
    /// ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED; refuses a PENDING purchase; acknowledging twice is a no-op.
    static func acknowledge(_ context: RequestContext) -> HTTPResponse {
        let (package, productId, token) = (context.route.parameters[0], context.route.parameters[1], context.route.parameters[2])
        if let failure = lookup(context, package: package, token: token) { return failure }
        if !context.request.body.isEmpty, (try? JSONValue.parse(context.request.body))?.members == nil {
            return Responses.google(400, "INVALID_ARGUMENT", "Invalid JSON payload received.", reason: "parseError", domain: "global")
        }
        enum Outcome { case done, wrongProduct, pending }
        let outcome = context.state.updateGooglePurchase(token) { purchase -> Outcome in
            let products = (purchase["lineItems"]?.arrayValue ?? [])
                .compactMap { $0.text("productId") }
            guard products.contains(productId) else { return .wrongProduct }
            guard purchase.text("subscriptionState") != pending else { return .pending }
            purchase = purchase.setting("acknowledgementState", .string(acknowledged))
            return .done
        }
        switch outcome {
        case .done?:
            return HTTPResponse(status: 200)
        case .wrongProduct?:
            return Responses.google(400, "INVALID_ARGUMENT", "The product id does not match the purchase token.",
                                    reason: "productNotOwnedByUser")
        case .pending?:
            return Responses.google(400, "FAILED_PRECONDITION", "The subscription purchase is not paid yet and cannot be acknowledged.",
                                    reason: "purchaseNotPaid")
        case nil:
            return Responses.google(404, "NOT_FOUND", "The purchase token was not found.", reason: "purchaseTokenNotFound")
        }
    }
}

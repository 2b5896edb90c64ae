import Crypto
import Foundation
import HTTP

/// The Orders API: `orders.get` and `orders.batchGet`, from the truth's orders (processed, refunded, partly refunded).
///
/// An order of a token more than 60 days past expiry is no longer served (404, as for an unknown order): the simulator's
/// stand-in for the store's answer window, so a repair of such an order keeps the reason `store_window`.
enum GoogleOrdersAPI {
    /// GET …/applications/{packageName}/orders/{orderId}
    static func get(_ context: RequestContext) -> HTTPResponse {
        let (package, orderId) = (context.route.parameters[0], context.route.parameters[1])
        guard package == context.state.packageName, let order = served(orderId, context) else { return notFound(orderId) }
        return Responses.json(200, order)
    }

    /// GET …/applications/{packageName}/orders:batchGet?orderIds=…&orderIds=… — 1 to 1,000 distinct IDs; any unknown ID
    /// fails the whole request.
    static func batchGet(_ context: RequestContext) -> HTTPResponse {
        let ids = context.queryAll("orderIds")
        guard context.route.parameters[0] == context.state.packageName else {
            return Responses.google(404, "NOT_FOUND", "No application was found for the given package name.", reason: "applicationNotFound")
        }
        guard (1...1000).contains(ids.count), Set(ids).count == ids.count else {
            return Responses.google(400, "INVALID_ARGUMENT", "orderIds must hold 1 to 1000 distinct order IDs.", reason: "invalid",
                                    domain: "global")
        }
        var orders: [JSONValue] = []
        for id in ids {
            guard let order = served(id, context) else { return notFound(id) }
            orders.append(order)
        }
        return Responses.json(200, .object(["orders": .array(orders)]))
    }

    private static func served(_ orderId: String, _ context: RequestContext) -> JSONValue? {
        guard let found = context.state.googleOrder(orderId), found.queryable else { return nil }
        return found.order
    }

    private static func notFound(_ orderId: String) -> HTTPResponse {
        Responses.google(404, "NOT_FOUND", "The order \(orderId) was not found.", reason: "orderNotFound")
    }
}

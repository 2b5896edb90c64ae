import Crypto

/// The orders of a Google story as the Orders API states them (`orders.get` / `orders.batchGet`), kept per token:
/// every charge is an order processed at its instant for the price of its period (a free trial's order is 0), and a
/// refund marks its order refunded, or — one refund in `GooglePartialRefund.every` — partly refunded by half its
/// total (the same part the earnings files carry with `Refund Type` `Partial`).
struct GoogleOrderBook {
    let packageName: String
    let seed: UInt64
    /// Orders by token, oldest first.
    private(set) var orders: [String: [JSONValue]] = [:]
    /// Where each order sits (token, index), and its total.
    private var index: [String: (token: String, position: Int, micros: Int64)] = [:]

    init(packageName: String, seed: UInt64) {
        self.packageName = packageName
        self.seed = seed
    }

    /// Records the charge `orderId` of `token` at `atMs` for the period up to `periodEndMs`.
    mutating func charge(_ orderId: String, token: GoogleTokenState, atMs: Int64, periodEndMs: Int64?) {
        guard index[orderId] == nil else { return }
        let micros = token.trial ? 0 : token.recurringMicros
        let total = GoogleTokenState.money(micros, token.currency)
        var details: [String: JSONValue] = ["basePlanId": .string(token.basePlanId),
                                            "servicePeriodStartTime": .string(WorldClock.rfc3339(atMs))]
        if let periodEndMs { details["servicePeriodEndTime"] = .string(WorldClock.rfc3339(periodEndMs)) }
        if let offer = token.offerId { details["offerId"] = .string(offer) }
        let time = JSONValue.string(WorldClock.rfc3339(atMs))
        let order: JSONValue = .object([
            "orderId": .string(orderId), "purchaseToken": .string(token.token), "state": .string("PROCESSED"),
            "createTime": time, "lastEventTime": time, "total": total, "tax": GoogleTokenState.money(0, token.currency),
            "lineItems": .array([.object(["productId": .string(token.productId), "total": total,
                                          "subscriptionDetails": .object(details)])]),
            "orderHistory": .object(["processedEvent": .object(["eventTime": time])]),
        ])
        index[orderId] = (token.token, orders[token.token, default: []].count, micros)
        orders[token.token, default: []].append(order)
    }

    /// Marks `orderId` refunded at `atMs`: wholly, or partly when the world's rule says so.
    mutating func refund(_ orderId: String, currency: String, atMs: Int64) {
        guard let (token, position, micros) = index[orderId], case .object(var order)? = orders[token]?[position],
              case .object(var history)? = order["orderHistory"] else { return }
        let time = JSONValue.string(WorldClock.rfc3339(atMs))
        if GooglePartialRefund.isPartial(orderId: orderId, seed: seed) {
            let part = GooglePartialRefund.amount(micros, currency: currency)
            history["partialRefundEvents"] = .array([.object([
                "createTime": time, "processTime": time, "state": .string("PROCESSED_SUCCESSFULLY"),
                "refundDetails": .object(["total": GoogleTokenState.money(part, currency),
                                          "tax": GoogleTokenState.money(0, currency)]),
            ])])
            order["state"] = .string("PARTIALLY_REFUNDED")
        } else {
            history["refundEvent"] = .object([
                "eventTime": time, "refundReason": .string("OTHER"),
                "refundDetails": .object(["total": order["total"] ?? GoogleTokenState.money(micros, currency),
                                          "tax": GoogleTokenState.money(0, currency)]),
            ])
            order["state"] = .string("REFUNDED")
        }
        order["orderHistory"] = .object(history)
        order["lastEventTime"] = time
        orders[token]?[position] = .object(order)
    }
}

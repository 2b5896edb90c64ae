import Crypto
import Foundation
import HTTP

/// voidedpurchases.list: filtered on `voidedTimeMillis`, 30-day window, `maxResults` ≤ 1000, token pagination.
enum GoogleVoidedAPI {
    static let windowMilliseconds: Int64 = 30 * 86_400_000

    /// GET …/applications/{packageName}/purchases/voidedpurchases?startTime&endTime&maxResults&token&type
    static func list(_ context: RequestContext) -> HTTPResponse {
        guard context.route.parameters[0] == context.state.packageName else {
            return Responses.google(404, "NOT_FOUND", "No application was found for the given package name.",
                                    reason: "applicationNotFound")
        }
        let now = Responses.milliseconds(context.now)
        let invalid = { (message: String) in
            Responses.google(400, "INVALID_ARGUMENT", message, reason: "invalid", domain: "global")
        }
        var maxResults = 1000
        if let text = context.query("maxResults") {
            guard let value = Int(text), (1...1000).contains(value) else { return invalid("maxResults must be within 1…1000.") }
            maxResults = value
        }
        var startTime = now - windowMilliseconds
        var endTime = now
        var type = 0
        var offset = 0
        if let token = context.query("token") {
            // The token carries the original window and type; startTime/endTime are ignored with a token.
            guard let data = Base64.decodeURL(token),
                  case let fields = String(decoding: data, as: UTF8.self).split(separator: ":").compactMap({ Int64($0) }),
                  fields.count == 4, fields[3] >= 0 else {
                return invalid("Invalid pagination token.")
            }
            (startTime, endTime, type, offset) = (fields[0], fields[1], Int(fields[2]), Int(fields[3]))
        } else {
            if let text = context.query("startTime") {
                guard let value = Int64(text) else { return invalid("startTime is not a number.") }
                startTime = value
            }
            if let text = context.query("endTime") {
                guard let value = Int64(text) else { return invalid("endTime is not a number.") }
                endTime = value
            }
            if let text = context.query("type") {
                guard let value = Int(text), value == 0 || value == 1 else { return invalid("type must be 0 or 1.") }
                type = value
            }
            guard startTime >= now - windowMilliseconds else { return invalid("startTime is too old: at most 30 days back.") }
            guard endTime <= now else { return invalid("endTime cannot be in the future.") }
            guard startTime <= endTime else { return invalid("startTime must not be after endTime.") }
        }
        let matching = context.state.googleVoidedPurchases.filter { item in
            guard let voided = item.integer("voidedTimeMillis"), voided >= startTime, voided <= endTime else { return false }
            return type == 1 || !context.state.isSubscriptionToken(item.text("purchaseToken") ?? "")
        }
        let slice = page(matching, offset: offset, size: maxResults)
        var body: [String: JSONValue] = [
            "pageInfo": .object(["totalResults": .integer(Int64(matching.count)), "resultPerPage": .integer(Int64(slice.items.count)),
                                 "startIndex": .integer(Int64(min(offset, matching.count)))]),
        ]
        if !slice.items.isEmpty { body["voidedPurchases"] = .array(Array(slice.items)) }
        if slice.hasMore {
            let token = Base64.urlEncoded(Array("\(startTime):\(endTime):\(type):\(slice.next)".utf8))
            body["tokenPagination"] = .object(["nextPageToken": .string(token)])
        }
        return Responses.json(200, .object(body))
    }
}

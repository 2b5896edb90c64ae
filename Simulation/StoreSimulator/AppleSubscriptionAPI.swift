import Crypto
import Foundation
import HTTP
import StoreTruth

/// Get All Subscription Statuses, Get Transaction Info and Get Transaction History v2.
///
/// A "customer" is one subscription (originalTransactionId): any of its transaction ids finds it.
enum AppleSubscriptionAPI {
    /// The subscription of `id`, or Apple's 4040010 (unknown numeric id, or a transaction of the other environment:
    /// production and sandbox are separate stores) / 4000006 (not an id at all).
    static func find(_ id: String, in context: RequestContext) -> Result<(AppleSubscriptionTruth, Int), AppleAPIError> {
        if let found = context.state.appleSubscription(containing: id) {
            let environment = found.0.transactions[found.1].text("environment") ?? context.app.environment
            return environment == context.app.environment ? .success(found) : .failure(.transactionIdNotFound)
        }
        let numeric = !id.isEmpty && id.count <= 20 && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber)
        return .failure(numeric ? .transactionIdNotFound : .invalidTransactionId)
    }

    /// GET /inApps/v1/subscriptions/{transactionId}[?status=1…5]
    static func statuses(_ context: RequestContext) throws -> HTTPResponse {
        var wanted = Set<Int>()
        for value in context.queryAll("status") {
            guard let status = Int(value), (1...5).contains(status) else { return Responses.apple(.invalidStatus) }
            wanted.insert(status)
        }
        let subscription: AppleSubscriptionTruth
        switch find(context.route.parameters[0], in: context) {
        case let .success(found): subscription = found.0
        case let .failure(error): return Responses.apple(error)
        }
        var groups: [JSONValue] = []
        if wanted.isEmpty || wanted.contains(subscription.status), let latest = subscription.transactions.indices.last {
            var index = latest
            if subscription.transactions.count >= 2, context.session.takeStaleState() { index = latest - 1 }
            let item: JSONValue = .object([
                "status": .integer(Int64(subscription.status)),
                "originalTransactionId": .string(subscription.originalTransactionId),
                "signedTransactionInfo": .string(try context.session.sign(subscription.transactions[index])),
                "signedRenewalInfo": .string(try context.session.sign(subscription.renewalInfo)),
            ])
            groups.append(.object([
                "subscriptionGroupIdentifier": .string(subscription.subscriptionGroupIdentifier),
                "lastTransactions": .array([item]),
            ]))
        }
        var body = context.app.envelope
        body["data"] = .array(groups)
        return Responses.json(200, .object(body))
    }

    /// GET /inApps/v1/transactions/{transactionId}
    static func transactionInfo(_ context: RequestContext) throws -> HTTPResponse {
        switch find(context.route.parameters[0], in: context) {
        case let .success((subscription, index)):
            let signed = try context.session.sign(subscription.transactions[index])
            return Responses.json(200, .object(["signedTransactionInfo": .string(signed)]))
        case let .failure(error):
            return Responses.apple(error)
        }
    }

    /// GET /inApps/v2/history/{transactionId} with revision, startDate, endDate, productId, productType,
    /// subscriptionGroupIdentifier, sort, inAppOwnershipType and revoked; 20 a page, filtered on purchaseDate.
    static func history(_ context: RequestContext) throws -> HTTPResponse {
        let filter: HistoryFilter
        switch HistoryFilter.parse(context) {
        case let .success(parsed): filter = parsed
        case let .failure(error): return Responses.apple(error)
        }
        let subscription: AppleSubscriptionTruth
        switch find(context.route.parameters[0], in: context) {
        case let .success(found): subscription = found.0
        case let .failure(error): return Responses.apple(error)
        }
        let scope = subscription.originalTransactionId + "?" + context.queryScope(excluding: ["revision"])
        var offset = 0
        if let revision = context.query("revision") {
            guard let decoded = PageToken.offset(revision, kind: "history", scope: scope) else {
                return Responses.apple(.invalidRevision)
            }
            offset = decoded
        }
        var matching = subscription.transactions.enumerated().filter { filter.matches($0.element) }
            .sorted { ($0.element.integer("purchaseDate") ?? 0, $0.offset) < ($1.element.integer("purchaseDate") ?? 0, $1.offset) }
            .map(\.element)
        if filter.descending { matching.reverse() }
        let slice = page(matching, offset: offset, size: 20)
        var body = context.app.envelope
        body["signedTransactions"] = .array(try slice.items.map { .string(try context.session.sign($0)) })
        body["hasMore"] = .bool(slice.hasMore)
        body["revision"] = .string(PageToken.make("history", scope: scope, offset: slice.next))
        return Responses.json(200, .object(body))
    }
}

import Crypto
import Foundation
import HTTP
import StoreTruth

/// Get Refund History and Look Up Order ID.
enum AppleLookupAPI {
    /// GET /inApps/v2/refund/lookup/{transactionId}[?revision=] — the subscription's revoked transactions,
    /// oldest revocation first, 20 a page.
    static func refundHistory(_ context: RequestContext) throws -> HTTPResponse {
        let subscription: AppleSubscriptionTruth
        switch AppleSubscriptionAPI.find(context.route.parameters[0], in: context) {
        case let .success(found): subscription = found.0
        case let .failure(error): return Responses.apple(error)
        }
        let scope = "refunds:" + subscription.originalTransactionId
        var offset = 0
        if let revision = context.query("revision") {
            guard let decoded = PageToken.offset(revision, kind: "refunds", scope: scope) else {
                return Responses.apple(.invalidRevision)
            }
            offset = decoded
        }
        let revoked = subscription.transactions.enumerated().filter { HistoryFilter.isRevoked($0.element) }
            .sorted { ($0.element.integer("revocationDate") ?? 0, $0.offset) < ($1.element.integer("revocationDate") ?? 0, $1.offset) }
            .map(\.element)
        let slice = page(revoked, offset: offset, size: 20)
        return Responses.json(200, .object([
            "signedTransactions": .array(try slice.items.map { .string(try context.session.sign($0)) }),
            "hasMore": .bool(slice.hasMore),
            "revision": .string(PageToken.make("refunds", scope: scope, offset: slice.next)),
        ]))
    }

    /// GET /inApps/v1/lookup/{orderId} — order id is the transaction's `orderId` field when the truth has one,
    /// else its `webOrderLineItemId`; unknown orders answer `{status: 1, signedTransactions: []}`.
    static func orderLookup(_ context: RequestContext) throws -> HTTPResponse {
        let transactions = context.state.appleTransactions(inOrder: context.route.parameters[0])
        return Responses.json(200, .object([
            "status": .integer(transactions.isEmpty ? 1 : 0),
            "signedTransactions": .array(try transactions.map { .string(try context.session.sign($0)) }),
        ]))
    }
}

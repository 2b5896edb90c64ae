import Foundation
import Postgres

/// A subscription's whole story for support and on-call: its current header and every recorded step in time order.
public struct Timeline: Sendable {
    /// The subscription now (identifiers masked unless raw).
    public let header: SubscriptionHeader
    /// The steps recorded at or before `asOf`, ordered by instant, then source (`sourceOrder`), then recorded instant.
    public let entries: [TimelineEntry]
    /// Rows recorded after this instant are left out.
    public let asOf: Date

    /// At one instant: the charge or refund first, then what it caused (price change, entitlement), then the
    /// notification and the pipeline's own rows.
    static let sourceOrder = ["billing_transaction", "subscription_price_change", "entitlement_interval", "inbound_webhook_event",
                              "store_query", "drift_event"]

    /// Builds the timeline of the subscription `identifier` names (its id, originalTransactionId, purchase token or an
    /// order id). Read-only. Throws `JobError.usage` when no subscription or several match.
    public static func build(identifier: String, asOf: Date, rawOwnIdentifiers: Bool, database: PostgresConnection) throws -> Timeline {
        let id = try SubscriptionLookup.resolve(identifier, shown: rawOwnIdentifiers ? identifier : IdentifierMask(
            own: [], foreign: [], rawOwnIdentifiers: false).show(identifier), database: database)
        let mask = try SubscriptionIdentifiers.mask(for: id, rawOwnIdentifiers: rawOwnIdentifiers, database: database)
        let header = try SubscriptionHeader.read(id, mask: mask, database: database)
        let unordered = try TransactionSteps.read(id, asOf: asOf, mask: mask, database: database)
            + WebhookSteps.read(id, asOf: asOf, mask: mask, database: database)
            + PriceChangeSteps.read(id, asOf: asOf, database: database)
            + EntitlementSteps.read(id, asOf: asOf, database: database)
            + PipelineSteps.drift(id, asOf: asOf, mask: mask, database: database)
            + PipelineSteps.storeQueries(id, asOf: asOf, mask: mask, database: database)
        let entries = unordered.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            if a.at != b.at { return a.at < b.at }
            let (sa, sb) = (sourceOrder.firstIndex(of: a.source) ?? 0, sourceOrder.firstIndex(of: b.source) ?? 0)
            if sa != sb { return sa < sb }
            let (ra, rb) = (a.recordedAt ?? a.at, b.recordedAt ?? b.at)
            if ra != rb { return ra < rb }
            return left.offset < right.offset
        }.map(\.element)
        return Timeline(header: header, entries: entries, asOf: asOf)
    }
}

import Foundation
import StoreTruth

/// A generated world in memory: the store truth, the database rows (loaded by `WorldWriter`) and the manifest.
public struct GeneratedWorld: Sendable {
    public let options: WorldOptions
    public let catalogue: WorldCatalogue
    public let truth: StoreTruth
    public let manifest: WorldManifest
    let subscriptions: [WorldSubscription]

    /// The database id of subscription number `index`.
    public func subscriptionId(_ index: Int) -> String { subscriptions[index].rows.subscriptionId }

    /// Every charge and refund the world made (the extension point for store report files).
    public var ledger: [WorldCharge] {
        subscriptions.flatMap { subscription in
            subscription.rows.transactions.compactMap { WorldCharge($0.record, subscriptionId: subscription.rows.subscriptionId) }
        }
    }
}

extension WorldSubscription: @unchecked Sendable {}

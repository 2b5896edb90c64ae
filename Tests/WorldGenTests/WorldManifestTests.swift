import Foundation
import Testing
@testable import WorldGen

@Suite struct WorldManifestTests {
    /// A fingerprint of everything generated for one subscription (truth and rows).
    func fingerprint(_ s: WorldSubscription) -> String {
        var parts: [String] = []
        if let apple = s.apple { parts.append(JSONText.serialize(apple.renewalInfo) + JSONText.serialize(.array(apple.transactions)) + "\(apple.status)") }
        parts += s.appleNotifications.map { JSONText.serialize($0.payload) + JSONText.serialize(.array($0.sendAttempts)) }
        parts += s.googleTokens.map { JSONText.serialize($0.purchase) }
        parts += s.googleVoided.map(JSONText.serialize)
        if let row = DatabaseLoaderRow.subscription(s.rows) { parts.append(row) }
        parts += s.rows.transactions.map { "\($0.record.transactionKey)|\($0.record.inboundEventId ?? "")|\($0.id)" }
        parts += s.rows.inbound.map { "\($0.id)|\($0.processedAtMs ?? -1)|\($0.processingError ?? "")" }
        parts += s.rows.priceChanges.map { "\($0.change)" }
        parts += s.rows.entitlementOrder.map { "\(s.rows.entitlements[$0]?.value as Any)" }
        return parts.joined(separator: "\n")
    }

    @Test func manifestListsEveryInjectedChangeAndNothingElse() throws {
        let base = WorldOptions(seed: 5, subscriptions: 5_000, months: 12)
        var faultedOptions = base
        faultedOptions.faultShares = WorldOptions.allFaults(0.04)
        let clean = try World.generate(base)
        let faulted = try World.generate(faultedOptions)
        #expect(clean.manifest.faults.isEmpty)
        var changed: Set<String> = []
        for (a, b) in zip(clean.subscriptions, faulted.subscriptions) where fingerprint(a) != fingerprint(b) {
            changed.insert(a.rows.subscriptionId)
        }
        let listed = Set(faulted.manifest.faults.map(\.subscriptionId))
        #expect(changed == listed, "unlisted: \(changed.subtracting(listed).count), listed but unchanged: \(listed.subtracting(changed).count)")
        // Pending acknowledgements only apply to purchases of the last 3 days: too rare to expect at 4%.
        #expect(Set(faulted.manifest.faults.map(\.kind)).isSuperset(of: Set(ProjectionFault.allCases).subtracting([.acknowledgementPendingInStore])))
    }

    @Test func faultSharesParse() throws {
        #expect(try WorldOptions.parseFaults("missed_notification=0.02,stale_price=0.1") == [.missedNotification: 0.02, .stalePrice: 0.1])
        #expect(try WorldOptions.parseFaults("all=0.01").count == ProjectionFault.allCases.count)
        #expect(throws: WorldError.self) { try WorldOptions.parseFaults("nope=1") }
    }
}

/// Renders the subscription row as text for fingerprints.
enum DatabaseLoaderRow {
    static func subscription(_ rows: LedgerRows) -> String? {
        rows.snapshot.map { "\($0)" }
    }
}

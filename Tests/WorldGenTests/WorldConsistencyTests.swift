import BillingCore
import Foundation
import Postgres
import ProjectionStore
import TestSupport
import Testing
@testable import WorldGen

@Suite(.serialized) struct WorldConsistencyTests {
    @Test func faultFreeWorldHasNoDriftOnRequery() throws {
        let world = try World.generate(WorldOptions(seed: 7, subscriptions: 2_000, months: 12))
        let (_, database) = try TestDatabase.migrated("test_worldgen_consistency")
        defer { database.close() }
        try WorldWriter.load(world, into: database)
        let findings = try WorldTestSupport.requeryAll(world, database)
        #expect(findings.isEmpty, "drift in \(findings.count) subscriptions, e.g. \(findings.sorted { $0.key < $1.key }.prefix(5))")
    }

    @Test func faultedWorldDriftsExactlyWhereTheManifestSays() throws {
        let world = try World.generate(WorldOptions(seed: 11, subscriptions: 3_000, months: 12, faultShares: WorldOptions.allFaults(0.05)))
        let (_, database) = try TestDatabase.migrated("test_worldgen_faulted")
        defer { database.close() }
        try WorldWriter.load(world, into: database)
        // Findings are keyed by store identifier; map every Apple id and Google token to its subscription.
        var owner: [String: String] = [:]
        var queryable: Set<String> = []
        for subscription in world.subscriptions {
            if let apple = subscription.apple { owner[apple.originalTransactionId] = subscription.rows.subscriptionId; queryable.insert(subscription.rows.subscriptionId) }
            for token in subscription.googleTokens {
                owner[token.purchaseToken] = subscription.rows.subscriptionId
                if token.queryable && token.purchaseToken == subscription.googleTokens.last?.purchaseToken { queryable.insert(subscription.rows.subscriptionId) }
            }
        }
        let findings = Dictionary(try WorldTestSupport.requeryAll(world, database).map { (owner[$0.key] ?? $0.key, $0.value) }) { $0 + $1 }
        let faulted = Set(world.manifest.faults.map(\.subscriptionId))
        // Tokens more than 60 days past expiry answer 410: a re-query cannot see their faults.
        let visible = Set(world.manifest.faults.filter(\.kind.visibleToRequery).map(\.subscriptionId)).intersection(queryable)
        #expect(!visible.isEmpty)
        let unexpected = Set(findings.keys).subtracting(faulted)
        #expect(unexpected.isEmpty, "drift outside the manifest: \(unexpected.prefix(5).map { ($0, findings[$0] ?? []) })")
        let missed = visible.subtracting(findings.keys)
        let missedFaults = world.manifest.faults.filter { missed.contains($0.subscriptionId) }.map { "\($0.kind.rawValue) \($0.correctValue ?? "")" }
        #expect(missed.isEmpty, "faults a re-query does not see: \(missedFaults.prefix(10))")
    }
}

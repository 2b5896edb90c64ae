import Foundation
import JobKit
import Monitoring
import Postgres
import RepairJobs
import Testing
import WorldGen

/// drift-counts against a generated world's manifest: before the chain, each fault kind the database alone can show
/// is counted exactly as injected; after the chain those counts drop to the unreachable faults (by reason) and no
/// drift is left open. The kinds only a store query reveals (a lost last notification, a stale price, a notification
/// Apple has but the database never stored, an unapplied Google void) cannot be counted before the chain; the chain's
/// re-query records them as repaired drift.
@Suite(.serialized) struct DriftCountsManifestTests {
    /// The series that count each database-visible kind (both Google acknowledgement kinds share one family).
    static let visible: [(kinds: Set<ProjectionFault>, family: String, labels: [String: String])] = [
        ([.failedWebhook], "iap_inbound_webhook_events_pending", ["state": "failed"]),
        ([.acknowledgementNotRecorded, .acknowledgementPendingInStore], "iap_google_unacknowledged_subscriptions", [:]),
        ([.refundNotReflected], "iap_revocations_unapplied_subscriptions", [:]),
    ]
    /// The kinds only a store query reveals.
    static let storeOnly: Set<ProjectionFault> = [.missedNotification, .stalePrice, .appleNotificationNotStored, .voidedPurchaseNotApplied]

    static func total(_ families: [MetricFamily], _ name: String, _ labels: [String: String] = [:]) -> Int {
        let samples = families.first { $0.name == name }?.samples ?? []
        return Int(samples.filter { sample in labels.allSatisfy { key, value in sample.labels.contains { $0.name == key && $0.value == value } } }
            .reduce(0) { $0 + $1.value })
    }

    @Test func databaseVisibleKindsEqualTheManifestBeforeTheChainAndTheUnreachableOnesAfter() throws {
        var options = ChainAcceptanceTests.options(seed: 79)
        options.subscriptions = 1_500
        let harness = try RequeryHarness(name: "drift_manifest", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        #expect(Set(Self.visible.flatMap(\.kinds)).union(Self.storeOnly) == Set(ProjectionFault.allCases), "every kind is classified")
        let injected = Dictionary(grouping: harness.world.manifest.faults, by: \.kind).mapValues(\.count)
        // A run of drift-counts just after the chain (the chain acts as of the world's instant; its drift rows carry it).
        let input = { CollectorInput(database: db, asOf: options.asOf.addingTimeInterval(60), pendingHours: 24) }

        let before = try DriftCounts.collect(input())
        for (kinds, family, labels) in Self.visible {
            let expected = kinds.reduce(0) { $0 + (injected[$1] ?? 0) }
            #expect(expected > 0, "the world injects \(kinds)")
            #expect(Self.total(before, family, labels) == expected, "before the chain: \(family)\(labels) vs injected \(kinds)")
        }
        #expect(Self.total(before, "iap_drift_subscriptions") == 0, "nothing was queried yet")

        for step in NightlyChainRun(harness: harness, asOf: options.asOf).run(runKey: "drift") {
            #expect(step.code == .succeeded, "\(step.name): \(step.summary)")
        }
        let reachable = try ManifestRecall.reachable(harness.world, database: db, asOf: options.asOf)
        let after = try DriftCounts.collect(input())
        // What is left is exactly the faults the chain could not repair, and each of those is unreachable by design
        // (a fault whose subscription the chain created afresh is repaired, though it is not "present" by its old id).
        var unreachableByKind: [ProjectionFault: [String: Int]] = [:]
        for (reason, faults) in reachable.excludedFaults {
            for fault in try faults.filter({ try !ManifestRecall.unrepaired([$0], database: db).isEmpty }) {
                unreachableByKind[fault.kind, default: [:]][reason, default: 0] += 1
            }
        }
        #expect(try ManifestRecall.unrepaired(reachable.faults, database: db).isEmpty, "every reachable fault is repaired")
        for (kinds, family, labels) in Self.visible {
            let unreachable = kinds.reduce(0) { $0 + (unreachableByKind[$1]?.values.reduce(0, +) ?? 0) }
            #expect(Self.total(after, family, labels) == unreachable,
                    "after the chain: \(family)\(labels) vs unrepaired unreachable \(kinds.map { unreachableByKind[$0] ?? [:] })")
        }
        #expect(Self.total(after, "iap_drift_subscriptions") == 0, "no drift left open")
        let repairedDrift = Self.total(after, "iap_drift_repaired_subscriptions")
        let storeOnlyReachable = reachable.faults.filter { Self.storeOnly.contains($0.kind) && $0.kind.visibleToRequery }.count
        #expect(repairedDrift > 0 && storeOnlyReachable > 0, "the re-query repaired store-only drift: \(repairedDrift)")
        print("drift vs manifest: injected \(injected.map { "\($0.key.rawValue)=\($0.value)" }.sorted()); "
              + "unreachable \(unreachableByKind.map { "\($0.key.rawValue)=\($0.value)" }.sorted()); repaired drift \(repairedDrift)")
    }
}

import Foundation
import JobKit
import Monitoring
import Postgres
import RepairJobs
import Testing
import WorldGen

/// drift-counts against a generated world's manifest, by fault kind. Before the chain, each kind the database alone
/// can show is counted exactly as injected. The kinds only a store query reveals (a lost notification, a stale
/// status or price, a notification Apple has but the database never stored, an unapplied Google void) are what the
/// chain finds: `iap_chain_repairs` publishes each repair job's finds, and every injected fault is either visible
/// before the chain, found by exactly the series its repair job publishes, or unreachable for a documented reason.
/// After the chain the database-visible counts drop to the unreachable faults and no drift is left open.
@Suite(.serialized) struct DriftCountsManifestTests {
    /// The series that count each database-visible kind (both Google acknowledgement kinds share one family).
    static let visible: [(kinds: Set<ProjectionFault>, family: String, labels: [String: String])] = [
        ([.failedWebhook], "iap_inbound_webhook_events_pending", ["state": "failed"]),
        ([.acknowledgementNotRecorded, .acknowledgementPendingInStore], "iap_google_unacknowledged_subscriptions", [:]),
        ([.refundNotReflected], "iap_revocations_unapplied_subscriptions", [:]),
    ]
    /// The kinds only a store query reveals.
    static let storeOnly: Set<ProjectionFault> = [.missedNotification, .stalePrice, .appleNotificationNotStored, .voidedPurchaseNotApplied]

    /// The kinds counted before the chain.
    static var visibleKinds: Set<ProjectionFault> { Set(visible.flatMap(\.kinds)) }
    /// Apple faults that are a notification missing from inbound_webhook_event.
    static let recovered: Set<ProjectionFault> = [.missedNotification, .appleNotificationNotStored]
    /// The iap_chain_repairs series: job, repair.
    static let repairSeries: [(job: String, repair: String, Void)] = [
        ("replay-events", "event_replayed", ()), ("recover-notifications", "notification_recovered", ()),
        ("sweep-voided", "void_applied", ()), ("ack-rescue", "acknowledgement_recorded", ()),
        ("ack-rescue", "acknowledged", ()), ("requery-at-risk", "subscription_repaired", ()),
    ]

    /// True when the fault's notification is in inbound_webhook_event.
    static func stored(_ fault: InjectedFault, _ db: PostgresConnection) throws -> Bool {
        try count(db, "SELECT count(*)::int AS n FROM inbound_webhook_event WHERE provider = $1::billing_provider AND provider_event_id = $2",
                  [fault.provider, fault.eventId ?? ""]) > 0
    }

    static func count(_ db: PostgresConnection, _ sql: String, _ parameters: [any PostgresEncodable]) throws -> Int {
        try db.query(sql, parameters).first?.decode(Int.self, "n") ?? 0
    }

    /// The repair (an iap_chain_repairs `repair` label) whose job found and repaired the fault, read from what that job
    /// left in the database; nil when none did.
    static func foundBy(_ fault: InjectedFault, _ db: PostgresConnection) throws -> String? {
        let subscription = fault.subscriptionId
        func drift(_ job: String, _ kind: String? = nil) throws -> Bool {
            try count(db, """
                SELECT count(*)::int AS n FROM drift_event d JOIN job_run j ON j.id = d.job_run_id
                WHERE d.subscription_id = $1::uuid AND j.job_name = $2 AND ($3::text IS NULL OR d.kind = $3)
                """, [subscription, job, kind]) > 0
        }
        switch fault.kind {
        case .missedNotification, .appleNotificationNotStored:
            if fault.provider == "APPLE", try stored(fault, db) { return "notification_recovered" }
        case .failedWebhook:
            if try count(db, """
                SELECT count(*)::int AS n FROM inbound_webhook_event
                WHERE provider = $1::billing_provider AND provider_event_id = $2 AND processed_at IS NOT NULL AND processing_error IS NULL
                """, [fault.provider, fault.eventId ?? ""]) > 0 { return "event_replayed" }
        case .acknowledgementNotRecorded:
            if try drift("ack-rescue", "acknowledgement") { return "acknowledgement_recorded" }
        case .acknowledgementPendingInStore:
            if try count(db, "SELECT count(*)::int AS n FROM subscription WHERE id = $1::uuid AND acknowledgement_status = 'ACKNOWLEDGED'",
                         [subscription]) > 0 { return "acknowledged" }
        case .voidedPurchaseNotApplied:
            // The sweep runs before the re-query: a void it applied leaves the re-query nothing to find.
            if try !drift("requery-at-risk"), try count(db, """
                SELECT count(*)::int AS n FROM billing_transaction
                WHERE subscription_id = $1::uuid AND event_type IN ('REFUNDED', 'REVOKED') AND reason IS NOT NULL
                """, [subscription]) > 0 { return "void_applied" }
        case .refundNotReflected, .stalePrice:
            break
        }
        return try drift("requery-at-risk") ? "subscription_repaired" : nil
    }

    static func total(_ families: [MetricFamily], _ name: String, _ labels: [String: String] = [:]) -> Int {
        let samples = families.first { $0.name == name }?.samples ?? []
        return Int(samples.filter { sample in labels.allSatisfy { key, value in sample.labels.contains { $0.name == key && $0.value == value } } }
            .reduce(0) { $0 + $1.value })
    }

    @Test func everyKindIsCountedBeforeTheChainOrFoundByItOrUnreachableByReason() throws {
        var options = ChainAcceptanceTests.options(seed: 79)
        options.subscriptions = 1_500
        // The rare kinds (their stories are rare: a Google refund last, a purchase in the last 3 days, a price change
        // accepted, an Apple refund last) get a higher share so every kind is present.
        for kind in [ProjectionFault.acknowledgementPendingInStore, .voidedPurchaseNotApplied, .stalePrice, .refundNotReflected] {
            options.faultShares[kind] = 0.5
        }
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
        for kind in ProjectionFault.allCases { #expect(injected[kind] ?? 0 > 0, "the world injects \(kind)") }
        let lostNotifications = harness.world.manifest.faults.filter { Self.recovered.contains($0.kind) && $0.provider == "APPLE" }
        #expect(try lostNotifications.filter { try Self.stored($0, db) }.isEmpty, "a lost notification is not stored before the chain")

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

        // Every fault is visible before the chain, found by one repair series, or unreachable by a documented reason;
        // each series of iap_chain_repairs equals the faults it found.
        var foundBy: [String: [ProjectionFault: Int]] = [:]
        var unaccounted: [String] = []
        let unreachableFaults = Set(reachable.excludedFaults.values.flatMap { $0 })
        for fault in harness.world.manifest.faults {
            if let repair = try Self.foundBy(fault, db) {
                foundBy[repair, default: [:]][fault.kind, default: 0] += 1
            } else if !unreachableFaults.contains(fault) && !Self.visibleKinds.contains(fault.kind) {
                unaccounted.append("\(fault.kind.rawValue) \(fault.provider) \(fault.subscriptionId) \(fault.correctValue ?? "")")
            }
        }
        #expect(unaccounted.isEmpty, "store-only faults the chain found no trace of: \(unaccounted)")
        for (job, repair, _) in Self.repairSeries {
            let found = foundBy[repair]?.values.reduce(0, +) ?? 0
            #expect(Self.total(after, "iap_chain_repairs", ["job": job, "repair": repair]) == found,
                    "iap_chain_repairs{job=\"\(job)\",repair=\"\(repair)\"} vs the faults it found: \(foundBy[repair] ?? [:])")
        }
        for kind in ProjectionFault.allCases {
            let visibleBefore = Self.visibleKinds.contains(kind) ? injected[kind] ?? 0 : 0
            let found = foundBy.values.reduce(0) { $0 + ($1[kind] ?? 0) }
            let unreachable = reachable.excludedFaults.values.reduce(0) { $0 + $1.filter { $0.kind == kind }.count }
            let unreachableUnfound = reachable.excludedFaults.values.reduce(0) { sum, faults in
                sum + faults.filter { fault in fault.kind == kind && ((try? Self.foundBy(fault, db)) ?? nil) == nil }.count }
            if Self.visibleKinds.contains(kind) {
                // Counted before the chain; the chain finds all of them but the unreachable ones.
                #expect(found + unreachableUnfound == visibleBefore, "\(kind.rawValue): found \(found) + unreachable \(unreachableUnfound) vs visible \(visibleBefore)")
            } else {
                #expect(found + unreachableUnfound == injected[kind] ?? 0,
                        "\(kind.rawValue): found by the chain \(found) + unreachable \(unreachableUnfound) (of \(unreachable) excluded) vs injected \(injected[kind] ?? 0)")
            }
        }
        let storeOnlyFound = foundBy.values.reduce(0) { sum, kinds in sum + kinds.filter { Self.storeOnly.contains($0.key) }.values.reduce(0, +) }
        #expect(storeOnlyFound > 0)
        print("drift vs manifest: injected \(injected.map { "\($0.key.rawValue)=\($0.value)" }.sorted()); "
              + "found by the chain \(foundBy.map { "\($0.key)=\($0.value.map { "\($0.key.rawValue):\($0.value)" }.sorted())" }.sorted()); "
              + "unreachable and not found \(reachable.excludedFaults.mapValues { faults in faults.filter { ((try? Self.foundBy($0, db)) ?? nil) == nil }.count }.filter { $0.value > 0 }.sorted { $0.key < $1.key })")
    }
}

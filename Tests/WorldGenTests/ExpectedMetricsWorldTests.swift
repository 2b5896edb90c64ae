import Foundation
import Testing
@testable import WorldGen

/// Properties of the expected metrics of generated worlds: the bridge, determinism, the price-change baseline.
@Suite struct ExpectedMetricsWorldTests {
    static func world(seed: UInt64, subscriptions: Int = 3_000) throws -> GeneratedWorld {
        try World.generate(WorldOptions(seed: seed, subscriptions: subscriptions, months: 12, faultShares: WorldOptions.allFaults(0.02)))
    }

    @Test(arguments: [UInt64(7), 42, 1_234])
    func bridgeIdentityHoldsInEveryCell(seed: UInt64) throws {
        let metrics = WorldWriter.expectedMetrics(try Self.world(seed: seed))
        #expect(metrics.months.count == 13)
        #expect(metrics.rows.count > 100)
        var previous: [String: Int64] = [:]
        for month in metrics.months {
            for row in metrics.rows where row.month == month {
                let key = "\(row.provider) \(row.currency) \(row.view)"
                #expect(row.bridgeHolds, "\(month) \(key)")
                // The start is the previous snapshot's MRR, rounded the same way.
                #expect(row.startMrrMicros == previous[key] ?? 0, "\(month) \(key)")
                // In a cell's own currency fx is only the rounding of five movement cells.
                if row.view == "local" { #expect(abs(row.fxMicros) <= 3, "\(month) \(key) fx \(row.fxMicros)") }
                previous[key] = row.mrrMicros
            }
            // Cells absent this month carry no MRR into the next.
            for (key, _) in previous where !metrics.rows.contains(where: { $0.month == month && "\($0.provider) \($0.currency) \($0.view)" == key }) {
                previous[key] = 0
            }
        }
        let paying = metrics.rows.filter { $0.view == "local" }.reduce(0) { $0 + $1.payingSubscribers }
        #expect(paying > 0)
        #expect(metrics.rows.contains { $0.view == "reporting" && $0.fxMicros != 0 })
        #expect(metrics.rows.contains { ($0.refundsByRefundMonthCount ?? 0) > 0 })
        #expect(metrics.rows.contains { ($0.graceRecovered ?? 0) > 0 && ($0.holdEntered ?? 0) > 0 })
    }

    @Test func sameSeedGivesByteIdenticalFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("expected-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var contents: [[String: Data]] = []
        for run in 0..<2 {
            let folder = root.appendingPathComponent("run\(run)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try WorldWriter.expectedMetrics(try Self.world(seed: 11, subscriptions: 1_500)).write(to: folder)
            let names = ["expected-metrics.json", "expected-metrics.csv", "fx_rates.csv", "price-change-transitions.csv"]
            contents.append(Dictionary(uniqueKeysWithValues: try names.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }))
        }
        #expect(contents[0] == contents[1])
        let fx = String(decoding: try #require(contents[0]["fx_rates.csv"]), as: UTF8.self).split(separator: "\n")
        #expect(fx.first == "date,currency,rate")
        #expect(fx.contains("2025-11-01,USD,1.0000000000"))
        // Plausible magnitudes: a euro is worth between 0.9 and 1.3 dollars, a yen under a cent, every month.
        for line in fx.dropFirst() {
            let parts = line.split(separator: ",")
            let rate = try #require(Double(parts[2]))
            if parts[1] == "EUR" { #expect(rate > 0.9 && rate < 1.3, "\(line)") }
            if parts[1] == "JPY" { #expect(rate > 0.004 && rate < 0.01, "\(line)") }
        }
    }

    @Test func priceChangesLeaveAComparableBaseline() throws {
        let world = try Self.world(seed: 5, subscriptions: 6_000)
        let metrics = WorldWriter.expectedMetrics(world)
        let cohorts = Dictionary(uniqueKeysWithValues: metrics.priceChangeCohorts.map { ($0.changeId, $0) })
        #expect(cohorts.count == world.catalogue.priceChanges.count)
        let increase = try #require(cohorts["pc1"])   // Apple monthly, US, consent
        #expect(increase.affected > 0 && increase.notified > 0 && increase.consented > 0 && increase.applied > 0)
        #expect(increase.churnedDueToChange > 0 && increase.consented > increase.churnedDueToChange)
        for cohort in cohorts.values where cohort.affected > 0 {
            #expect(cohort.baselinePeers > 0, "\(cohort.changeId) has no unaffected peers")
        }
        // Staggered: announced before effective, not all at the same instant.
        #expect(Set(world.catalogue.priceChanges.map(\.announcedAtMs)).count > 3)
        #expect(world.catalogue.priceChanges.allSatisfy { $0.announcedAtMs < $0.effectiveAtMs })
        // Same store, product and region as pc1 but Google: those US monthly subscribers are never told of pc1.
        let transitions = metrics.transitions.filter { $0.changeId == "pc1" }
        let told = Set(transitions.map(\.subscriptionId))
        let googleUS = (0..<world.subscriptions.count).filter {
            guard let story = world.subscriptions[$0].story else { return false }
            return !story.isApple && story.market == 0 && story.steps.contains { $0.plan == 1 }
        }.map(world.subscriptionId)
        #expect(!googleUS.isEmpty && told.isDisjoint(with: googleUS))
        // Every affected subscription's transitions start with PENDING (told) or APPLIED (decrease without notice).
        for id in told { #expect(["PENDING", "APPLIED"].contains(transitions.first { $0.subscriptionId == id }?.state.rawValue)) }
    }

    @Test func weeklyRenewalsAreSevenDaysApart() throws {
        let world = try Self.world(seed: 9, subscriptions: 1_500)
        var checked = 0
        for subscription in world.subscriptions {
            guard let steps = subscription.story?.steps else { continue }
            let renewals = steps.filter { $0.step == .renew && $0.plan == 0 }
            for (earlier, later) in zip(renewals, renewals.dropFirst()) where earlier.periodEndMs == later.atMs {
                #expect(later.atMs - earlier.atMs == 7 * WorldClock.day)
                checked += 1
            }
        }
        #expect(checked > 100)
    }
}

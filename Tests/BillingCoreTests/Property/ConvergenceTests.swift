import Foundation
import SeededRandom
import Testing
@testable import BillingCore

@Suite("Property: any delivery order converges to the in-order state")
struct ConvergenceTests {
    static let iterations: UInt64 = 400

    /// Folds `project` over the states, feeding each outcome back as the next `current`.
    static func fold(_ states: [StoreState], now: Date, refs: ResolvedReferences) throws -> ProjectionOutcome? {
        var current: SubscriptionSnapshot?
        var last: ProjectionOutcome?
        for state in states {
            let outcome = try Projection.project(current: current, storeState: state,
                                                 trigger: ProjectionTrigger(source: .requery, now: now), resolved: refs)
            current = outcome.subscription
            last = outcome
        }
        return last
    }

    static func shuffled<T>(_ items: [T], rng: inout SplitMix64) -> [T] {
        var copy = items
        for index in stride(from: copy.count - 1, to: 0, by: -1) {
            copy.swapAt(index, Int(rng.next() % UInt64(index + 1)))
        }
        return copy
    }

    static func checkConvergence(_ states: [StoreState], seed: UInt64, refs: ResolvedReferences, now: Date) throws {
        let inOrder = try #require(try fold(states, now: now, refs: refs))
        var rng = SplitMix64(seed: seed ^ 0xA5A5_5A5A)
        for round in 0..<3 {
            let permuted = shuffled(states, rng: &rng)
            let outOfOrder = try #require(try fold(permuted, now: now, refs: refs))
            #expect(outOfOrder.subscription == inOrder.subscription, "seed \(seed) round \(round)")
            #expect(outOfOrder.entitlement == inOrder.entitlement, "seed \(seed) round \(round)")
            if outOfOrder.subscription != inOrder.subscription { return }
        }
    }

    @Test("Apple histories")
    func appleHistories() throws {
        var statuses = Set<SubscriptionStatus>()
        for seed in 1...Self.iterations {
            let history = AppleHistoryGenerator.history(seed: seed)
            let now = history.compactMap { $0.notification?.signedDate?.date }.max() ?? TestData.day(0)
            try Self.checkConvergence(history.map { .apple($0) }, seed: seed, refs: TestData.appleRefs(), now: now)
            if let final = try Self.fold(history.map { .apple($0) }, now: now, refs: TestData.appleRefs()) {
                statuses.insert(final.status)
            }
        }
        // The generator reaches every terminal and live state the Apple table produces.
        #expect(statuses.isSuperset(of: [.active, .trialing, .inGracePeriod, .onHold, .expired, .revoked]))
    }

    @Test("Google histories")
    func googleHistories() throws {
        var statuses = Set<SubscriptionStatus>()
        for seed in 1...Self.iterations {
            let history = GoogleHistoryGenerator.history(seed: seed)
            let now = history.compactMap { $0.notification?.eventTime }.max() ?? TestData.day(0)
            try Self.checkConvergence(history.map { .google($0) }, seed: seed, refs: TestData.googleRefs(), now: now)
            if let final = try Self.fold(history.map { .google($0) }, now: now, refs: TestData.googleRefs()) {
                statuses.insert(final.status)
            }
        }
        #expect(statuses.isSuperset(of: [.active, .canceled, .inGracePeriod, .onHold, .expired, .paused]))
    }
}

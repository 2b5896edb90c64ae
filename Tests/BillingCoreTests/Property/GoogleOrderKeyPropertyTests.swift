import Foundation
import SeededRandom
import Testing
@testable import BillingCore

/// The history a generated Google subscription leaves does not depend on whether its answers carry
/// `lineItems[].latestSuccessfulOrderId`, in any delivery order; its charges do not depend on the delivery order.
///
/// Event rows derived from the previous state (PRICE_CHANGED, the RECOVERED/RENEWED label of a charge) still
/// follow the delivery order: insert-if-absent keeps whichever answer described them first.
@Suite("Property: Google history rows are independent of order and of latestSuccessfulOrderId")
struct GoogleOrderKeyPropertyTests {
    static let iterations: UInt64 = 300

    /// A stored history row without its evidence (payload, inbound event).
    struct Row: Hashable {
        var type: BillingEventType
        var effectiveAt: Date
        var expiresAt: Date?
        var orderId: String?
        var amount: Money?
        var churnReason: ChurnReason?

        init(_ record: BillingTransactionRecord) {
            type = record.eventType
            effectiveAt = record.effectiveAt
            expiresAt = record.expiresAt
            orderId = record.orderId
            amount = record.amount
            churnReason = record.churnReason
        }
    }

    /// Projects the states in turn and keeps the first row per transaction key, as the insert-if-absent writer does.
    static func history(_ states: [GoogleStoreState], now: Date) throws -> [String: Row] {
        var current: SubscriptionSnapshot?
        var rows: [String: Row] = [:]
        for state in states {
            let outcome = try Projection.project(current: current, storeState: .google(state),
                                                 trigger: ProjectionTrigger(source: .requery, now: now),
                                                 resolved: TestData.googleRefs())
            current = outcome.subscription
            for record in outcome.transactions where rows[record.transactionKey] == nil {
                rows[record.transactionKey] = Row(record)
            }
        }
        return rows
    }

    static let chargeTypes: Set<BillingEventType> = [.purchased, .renewed, .recovered, .restarted]

    /// The charges of a history by key (event rows end in `:{EVENT}`), without the event type: RECOVERED or RENEWED
    /// names the same order.
    static func charges(_ rows: [String: Row]) -> [String: Row] {
        rows.filter { chargeTypes.contains($0.value.type) && !$0.key.hasSuffix(":" + $0.value.type.rawValue) }.mapValues { row in
            var charge = row
            charge.type = .renewed
            return charge
        }
    }

    @Test("In any delivery order, answers with and without latestSuccessfulOrderId yield the same keys and rows")
    func keysAndRows() throws {
        for seed in 1...Self.iterations {
            let answers = GoogleHistoryGenerator.history(seed: seed)
            let now = answers.compactMap { $0.notification?.eventTime }.max() ?? TestData.day(0)
            let baselineCharges = Self.charges(try Self.history(answers, now: now))
            var rng = SplitMix64(seed: seed ^ 0x5EED_0D0D)
            for round in 0..<4 {
                let order = round == 0 ? Array(answers.indices) : ConvergenceTests.shuffled(Array(answers.indices), rng: &rng)
                let with = order.map { answers[$0] }
                let without = GoogleHistoryGenerator.withoutSuccessfulOrderIds(with)
                let mixed = zip(with, without).map { rng.chance(50) ? $0.0 : $0.1 }
                let rows = try Self.history(with, now: now)
                #expect(try Self.history(without, now: now) == rows, "seed \(seed) round \(round): without")
                #expect(try Self.history(mixed, now: now) == rows, "seed \(seed) round \(round): mixed")
                // Charges (key, order, amount, period) never depend on the delivery order.
                #expect(Self.charges(rows) == baselineCharges, "seed \(seed) round \(round): charges")
                if Self.charges(rows) != baselineCharges { return }
            }
        }
    }
}

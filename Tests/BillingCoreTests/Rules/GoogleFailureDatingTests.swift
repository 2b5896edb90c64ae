import Foundation
import Testing
@testable import BillingCore

/// A Google billing failure in the history as the store had it (issue 28): a recovery is never dated before the failure
/// it recovers (finding 4), and a grace state keeps the paid period's start, so the entitlement interval gains no
/// boundary where nothing happened (finding 7).
@Suite("Google: billing failures dated where they happened")
struct GoogleFailureDatingTests {
    static func instant(_ text: String) throws -> Date { try RFC3339Timestamp(text).date }

    /// In grace since the renewal of 2025-03-31T13:00Z failed: the database last saw the failure then; Google extended
    /// expiryTime to the grace end (04-08).
    static func inGrace() throws -> SubscriptionSnapshot {
        var current = TestData.googleSnapshot(.inGracePeriod)
        current.currentPeriodStartAt = try instant("2025-03-01T13:00:00Z")
        current.currentPeriodEndAt = try instant("2025-04-08T13:00:00Z")
        current.lastStoreStateAt = try instant("2025-03-31T13:00:00Z")
        return current
    }

    /// The recovery of 2025-03-31T20:00Z: a new order whose period ends a month later, 04-30T20:00Z. One month back
    /// from there, month-end clamped, is 03-30T20:00Z: before the renewal failed.
    static func recovery(notified: Bool) throws -> GoogleStoreState {
        var state = try Fixtures.google("google/01_SUBSCRIPTION_RECOVERED.json").state
        state.notification?.eventTimeMillis = String(Int64(try instant("2025-03-31T20:00:00Z").timeIntervalSince1970 * 1_000))
        state.purchase?.lineItems?[0].expiryTime = RFC3339Timestamp(date: try instant("2025-04-30T20:00:00Z"))
        if !notified { state.notification = nil }
        return state
    }

    @Test("A recovery is never dated before the failure it recovers (RTDN and re-query)")
    func recoveryFollowsItsFailure() throws {
        let failureSeen = try Self.instant("2025-03-31T13:00:00Z")
        let notified = try Projection.project(
            current: try Self.inGrace(), storeState: .google(try Self.recovery(notified: true)),
            trigger: TestData.webhook(at: try Self.instant("2025-03-31T20:01:00Z")), resolved: TestData.googleRefs())
        let requeried = try GoogleRequeryFixtures.project(try Self.recovery(notified: false), current: try Self.inGrace(),
                                                          now: try Self.instant("2025-04-01T06:00:00Z"))
        for (path, outcome) in [("rtdn", notified), ("requery", requeried)] {
            let recovered = outcome.transactions.filter { $0.eventType == .recovered }
            #expect(recovered.count == 1, "\(path): \(outcome.transactions.map(\.eventType))")
            for row in recovered {
                #expect(row.effectiveAt >= failureSeen, "\(path): recovery dated \(row.effectiveAt), failure seen \(failureSeen)")
                #expect(row.charge?.startAt == row.effectiveAt, "\(path)")
            }
        }
    }

    @Test("A grace state keeps the paid period's start: the entitlement interval is extended, not split")
    func graceKeepsThePaidPeriodStart() throws {
        // Signed up 02-01; the renewal order ..0 paid 03-01T09:00Z → 04-01T09:00Z; its renewal failed: grace until 04-04.
        var state = try Fixtures.google("google/06_SUBSCRIPTION_IN_GRACE_PERIOD.json").state
        state.purchase?.startTime = RFC3339Timestamp(date: try Self.instant("2025-02-01T09:00:00.412Z"))
        state.purchase?.lineItems?[0].latestSuccessfulOrderId = "GPA.3345-9812-4476-10293..0"
        var current = TestData.googleSnapshot(.active)
        let paidStart = try Self.instant("2025-03-01T09:00:00.412Z")
        current.currentPeriodStartAt = paidStart
        current.currentPeriodEndAt = try Self.instant("2025-04-01T09:00:00.412Z")
        let outcome = try Projection.project(
            current: current, storeState: .google(state),
            trigger: TestData.webhook(at: try Self.instant("2025-04-01T09:01:00Z")), resolved: TestData.googleRefs())
        #expect(outcome.subscription.status == .inGracePeriod)
        // expiryTime minus one month would be 03-04T09:00:00.412Z, an instant where nothing happened.
        #expect(outcome.subscription.currentPeriodStartAt == paidStart)
        #expect(outcome.entitlement.validFrom == paidStart)
        #expect(outcome.entitlement.validUntil == (try Self.instant("2025-04-04T09:00:00.412Z")))
    }
}

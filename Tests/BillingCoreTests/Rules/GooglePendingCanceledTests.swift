import Foundation
import Testing
@testable import BillingCore

/// A cancelled pending purchase (`SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED`) was never paid: whatever its line
/// item's `expiryTime` says, the projection writes no charge (issue 28, finding 1).
@Suite("Google: a cancelled pending purchase never writes a charge")
struct GooglePendingCanceledTests {
    /// The cancel time of fixture 20 (its RTDN's eventTimeMillis, 2025-03-01T09:10:00Z).
    static let cancelTime = Date(timeIntervalSince1970: 1_740_820_200)

    /// The expiryTime shapes seen: absent, before, equal to and after the cancel time.
    static let expiryShapes: [(String, Date?)] = [
        ("absent", nil), ("before", cancelTime.addingTimeInterval(-3_600)), ("equal", cancelTime),
        ("after", cancelTime.addingTimeInterval(30 * 86_400)),
    ]

    static func state(expiry: Date?, notified: Bool) throws -> GoogleStoreState {
        var state = try Fixtures.google("google/20_SUBSCRIPTION_PENDING_PURCHASE_CANCELED.json").state
        state.purchase?.lineItems?[0].expiryTime = expiry.map { RFC3339Timestamp(date: $0) }
        if !notified { state.notification = nil }
        return state
    }

    static func assertNoCharge(_ outcome: ProjectionOutcome, _ shape: String) {
        let charges = outcome.transactions.filter { [.purchased, .renewed, .recovered, .restarted].contains($0.eventType) }
        #expect(charges.isEmpty, "expiryTime \(shape): \(charges.map(\.transactionKey))")
        #expect(outcome.transactions.allSatisfy { $0.charge == nil }, "expiryTime \(shape)")
        #expect(outcome.subscription.status == .expired, "expiryTime \(shape)")
    }

    @Test("The RTDN on a pending subscription writes no charge, for each expiryTime shape")
    func notifiedOnPending() throws {
        for (shape, expiry) in Self.expiryShapes {
            let state = try Self.state(expiry: expiry, notified: true)
            let outcome = try Projection.project(
                current: TestData.googleSnapshot(.pending), storeState: .google(state),
                trigger: TestData.webhook(at: Self.cancelTime.addingTimeInterval(60)), resolved: TestData.googleRefs())
            Self.assertNoCharge(outcome, shape)
        }
    }

    @Test("A re-query first seeing a cancelled pending purchase writes no charge, for each expiryTime shape")
    func requeriedFirstSight() throws {
        for (shape, expiry) in Self.expiryShapes {
            let state = try Self.state(expiry: expiry, notified: false)
            let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: Self.cancelTime.addingTimeInterval(60))
            Self.assertNoCharge(outcome, shape)
            #expect(outcome.transactions.allSatisfy { $0.effectiveAt <= Self.cancelTime.addingTimeInterval(60) })
        }
    }
}

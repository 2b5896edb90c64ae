import Foundation
import Testing
@testable import BillingCore

/// A subscription first seen through a re-query records its charge and the state the store reports.
@Suite("Google: first sight through a re-query")
struct GoogleFirstSightTests {
    static let token = TestData.googleToken

    @Test("First seen already expired: PURCHASED and EXPIRED (at expiryTime, with its churn reason) are recorded")
    func firstSeenExpired() throws {
        let state = try GoogleRequeryFixtures.state("EXPIRED_FIRST_SIGHT")
        let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: TestData.day(20))
        let charge = "GOOGLE:\(Self.token):GPA.3312-7781-0042-61877"
        #expect(outcome.status == .expired)
        #expect(outcome.transactionKeys == [charge, charge + ":EXPIRED"])
        let purchased = try #require(outcome.transactions.first)
        #expect(purchased.eventType == .purchased)
        #expect(purchased.effectiveAt == (try GoogleRequeryFixtures.instant("2025-01-06T14:31:07.093Z")))
        let expired = try #require(outcome.transactions.last)
        #expect(expired.eventType == .expired)
        #expect(expired.effectiveAt == (try GoogleRequeryFixtures.instant("2025-02-06T14:31:07.093Z")))
        #expect(expired.churnReason == .voluntary)
        #expect(!outcome.entitlement.isActive)
    }

    @Test("First seen on hold: ENTERED_ON_HOLD on the last paid renewal; no charge row with the hold's expiry")
    func firstSeenOnHold() throws {
        let state = try GoogleRequeryFixtures.state("ON_HOLD_NO_LSOI")
        let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: TestData.day(0))
        let charge = "GOOGLE:\(Self.token):GPA.3355-0918-7764-20931..11"
        #expect(outcome.status == .onHold)
        #expect(outcome.transactionKeys == [charge + ":ENTERED_ON_HOLD"])
        #expect(outcome.transactions.map(\.eventType) == [.enteredOnHold])
        #expect(outcome.transactions.first?.orderId == "GPA.3355-0918-7764-20931..11")
    }

    @Test("First seen paused: the charge and PAUSED")
    func firstSeenPaused() throws {
        let state = try GoogleRequeryFixtures.state("PAUSED")
        let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: TestData.day(10))
        #expect(outcome.status == .paused)
        #expect(outcome.transactions.map(\.eventType) == [.renewed, .paused])
    }

    @Test("First seen canceled after its period: CANCELED at cancelTime, no EXPIRED the store has not reported")
    func firstSeenCanceledAndEnded() throws {
        let state = try GoogleRequeryFixtures.state("CANCELED_WITH_SURVEY")
        let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: TestData.day(20))
        let charge = "GOOGLE:\(Self.token):GPA.3391-2264-1180-57420"
        #expect(outcome.status == .canceled)
        #expect(outcome.transactionKeys == [charge, charge + ":CANCELED"])
        let canceled = try #require(outcome.transactions.last)
        #expect(canceled.effectiveAt == (try GoogleRequeryFixtures.instant("2025-03-05T19:48:02.117Z")))
        #expect(canceled.churnReason == .voluntary)
        #expect(!outcome.entitlement.isActive)
    }

    @Test("First seen active: only the charge")
    func firstSeenActive() throws {
        let state = try GoogleRequeryFixtures.state("SIGNUP_VANITY_CODE")
        let outcome = try GoogleRequeryFixtures.project(state, current: nil, now: TestData.day(2))
        #expect(outcome.transactions.map(\.eventType) == [.purchased])
    }
}

import Foundation
import Testing
@testable import BillingCore

@Suite("Grace period scenarios G-1..G-6")
struct GraceScenarioTests {
    @Test("G-1 Apple DID_FAIL_TO_RENEW/GRACE_PERIOD: grace, entitled, period ends at gracePeriodExpiresDate")
    func g1() throws {
        let outcome = try TestData.projectApple("apple/DID_FAIL_TO_RENEW_GRACE_PERIOD.json", current: TestData.appleSnapshot(.active))
        #expect(outcome.status == .inGracePeriod)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.eventType == .enteredGracePeriod)
        #expect(outcome.subscription.currentPeriodEndAt == Date(timeIntervalSince1970: 1_743_760_800)) // 2025-04-04T10:00Z
        #expect(outcome.transactionKeys.contains("APPLE:2000000812345678:2000000812345678:ENTERED_GRACE_PERIOD"))
    }

    @Test("G-1 policy: grace without entitlement when the setting says so")
    func graceWithoutEntitlement() throws {
        let outcome = try TestData.projectApple("apple/DID_FAIL_TO_RENEW_GRACE_PERIOD.json", current: TestData.appleSnapshot(.active),
                                                settings: ProjectionSettings(entitleDuringGracePeriod: false))
        #expect(outcome.status == .inGracePeriod)
        #expect(!outcome.entitlement.isActive)
    }

    @Test("G-2 Apple DID_RENEW/BILLING_RECOVERY during grace: ACTIVE, entitled, RECOVERED")
    func g2() throws {
        let outcome = try TestData.projectApple("apple/DID_RENEW_BILLING_RECOVERY.json", current: TestData.appleSnapshot(.inGracePeriod))
        #expect(outcome.status == .active)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.eventType == .recovered)
        #expect(outcome.transactions.first?.transactionKey == "APPLE:2000000812345678:2000000823456789")
    }

    @Test("G-3 Apple GRACE_PERIOD_EXPIRED: ON_HOLD, not entitled, ENTERED_ON_HOLD")
    func g3() throws {
        let outcome = try TestData.projectApple("apple/GRACE_PERIOD_EXPIRED.json", current: TestData.appleSnapshot(.inGracePeriod))
        #expect(outcome.status == .onHold)
        #expect(!outcome.entitlement.isActive)
        #expect(outcome.eventType == .enteredOnHold)
    }

    @Test("G-4 Google type 6: IN_GRACE_PERIOD, entitled, period ends at expiryTime")
    func g4() throws {
        let outcome = try TestData.projectGoogle("google/06_SUBSCRIPTION_IN_GRACE_PERIOD.json", current: TestData.googleSnapshot(.active))
        #expect(outcome.status == .inGracePeriod)
        #expect(outcome.entitlement.isActive)
        #expect(outcome.subscription.currentPeriodEndAt == (try RFC3339Timestamp("2025-04-04T09:00:00.412Z")).date)
        // The declined renewal is latestOrderId; keys never use it. A grace answer adds no charge row: its
        // expiryTime is the end of grace, not of the paid period (the charge is recorded by the answer that paid it).
        #expect(outcome.transactionKeys == [
            "GOOGLE:\(TestData.googleToken):GPA.3345-9812-4476-10293:ENTERED_GRACE_PERIOD",
        ])
    }

    @Test("G-5 Google type 5: ON_HOLD, not entitled")
    func g5() throws {
        let outcome = try TestData.projectGoogle("google/05_SUBSCRIPTION_ON_HOLD.json", current: TestData.googleSnapshot(.inGracePeriod))
        #expect(outcome.status == .onHold)
        #expect(!outcome.entitlement.isActive)
        #expect(outcome.eventType == .enteredOnHold)
    }

    @Test("G-6 Google type 1 from hold: ACTIVE, entitled, RECOVERED charge row")
    func g6() throws {
        let outcome = try TestData.projectGoogle("google/01_SUBSCRIPTION_RECOVERED.json", current: TestData.googleSnapshot(.onHold))
        #expect(outcome.status == .active)
        #expect(outcome.entitlement.isActive)
        let charge = try #require(outcome.transactions.first)
        #expect(charge.eventType == .recovered)
        #expect(charge.transactionKey == "GOOGLE:\(TestData.googleToken):GPA.3345-9812-4476-10293..0")
        #expect(charge.orderId == "GPA.3345-9812-4476-10293..0")
    }
}

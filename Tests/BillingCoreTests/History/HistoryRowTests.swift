import Foundation
import Testing
@testable import BillingCore

/// Period arithmetic from the ISO billing period, and history rows that say what was bought, what was refunded
/// and why.
@Suite struct BillingPeriodTests {
    static func utc(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    @Test func parsesTheCataloguePeriodsAndRejectsTheRest() {
        #expect(["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].compactMap { BillingPeriod(iso: $0)?.iso } == ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"])
        #expect(["", "P", "P0M", "1M", "P1Y2M", "P-1M", "PM", "P01M", "p1m"].compactMap { BillingPeriod(iso: $0) }.isEmpty)
    }

    @Test func addsInUTCWithMonthEndClamping() throws {
        let jan31 = try Self.utc("2026-01-31T10:00:00Z")
        #expect(BillingPeriod(iso: "P1M")?.advance(jan31) == (try Self.utc("2026-02-28T10:00:00Z")))
        #expect(BillingPeriod(iso: "P1W")?.advance(jan31) == (try Self.utc("2026-02-07T10:00:00Z")))
        #expect(BillingPeriod(iso: "P3M")?.advance(jan31) == (try Self.utc("2026-04-30T10:00:00Z")))
        #expect(BillingPeriod(iso: "P1Y")?.advance(try Self.utc("2028-02-29T00:00:00Z")) == (try Self.utc("2029-02-28T00:00:00Z")))
        #expect(BillingPeriod(iso: "P1W")?.start(endingAt: try Self.utc("2026-03-05T00:00:00Z")) == (try Self.utc("2026-02-26T00:00:00Z")))
        #expect(BillingPeriod(iso: "P6M")?.start(endingAt: try Self.utc("2026-08-31T00:00:00Z")) == (try Self.utc("2026-02-28T00:00:00Z")))
    }

    /// Issue 28, finding 4: a clamped end has several starts; a period bought by an instant reads back to the latest
    /// start not after it, so never to a start before the one it was bought at.
    @Test func aClampedEndReadsBackToTheLatestStartNotAfterTheAnswer() throws {
        let month = try #require(BillingPeriod(iso: "P1M"))
        let april30 = try Self.utc("2025-04-30T20:00:00Z")
        // Mar 30 and Mar 31 + P1M are both Apr 30; stepping back clamps to Mar 30.
        #expect(month.starts(endingAt: april30) == [try Self.utc("2025-03-30T20:00:00Z"), try Self.utc("2025-03-31T20:00:00Z")])
        #expect(month.start(endingAt: april30) == (try Self.utc("2025-03-30T20:00:00Z")))
        #expect(month.start(endingAt: april30, notAfter: try Self.utc("2025-03-31T20:00:00Z")) == (try Self.utc("2025-03-31T20:00:00Z")))
        #expect(month.start(endingAt: april30, notAfter: try Self.utc("2025-03-31T19:59:59Z")) == (try Self.utc("2025-03-30T20:00:00Z")))
        // Jan 28 … Jan 31 + P1M are all Feb 28 (2026).
        #expect(month.starts(endingAt: try Self.utc("2026-02-28T10:00:00Z")).count == 4)
        #expect(month.start(endingAt: try Self.utc("2026-02-28T10:00:00Z"), notAfter: try Self.utc("2026-01-29T11:00:00Z"))
                == (try Self.utc("2026-01-29T10:00:00Z")))
        // An unambiguous end has one start; an end no start reaches (Mar 31: Feb 28 + P1M is Mar 28) steps back.
        #expect(month.starts(endingAt: try Self.utc("2026-03-15T10:00:00Z")) == [try Self.utc("2026-02-15T10:00:00Z")])
        #expect(month.start(endingAt: try Self.utc("2026-03-31T10:00:00Z"), notAfter: .distantFuture) == (try Self.utc("2026-02-28T10:00:00Z")))
        // Feb 28 and Feb 29 (2028) + P1Y are both Feb 28, 2029; a week has one start.
        #expect(BillingPeriod(iso: "P1Y")?.starts(endingAt: try Self.utc("2029-02-28T00:00:00Z")).count == 2)
        #expect(BillingPeriod(iso: "P1W")?.starts(endingAt: try Self.utc("2026-03-05T00:00:00Z")) == [try Self.utc("2026-02-26T00:00:00Z")])
    }
}

@Suite struct HistoryRowTests {
    static let weekly = ResolvedPlan(planId: "plan-weekly", provider: .google, productId: "pro_monthly", basePlanId: "monthly",
                                     intervalUnit: .monthly, billingPeriod: BillingPeriod(iso: "P1W"))
    static let yearly = ResolvedPlan(planId: "plan-yearly", provider: .google, productId: "pro_monthly", basePlanId: "monthly",
                                     intervalUnit: .yearly, billingPeriod: BillingPeriod(iso: "P1Y"))

    /// Fixture 02: a renewal whose order expires 2025-05-01T09:00:00.412Z; the subscription started 2025-03-01.
    @Test func aWeeklyRenewalIsDatedOneWeekBeforeItsExpiryNotAMonth() throws {
        let outcome = try TestData.projectGoogle("google/02_SUBSCRIPTION_RENEWED.json", current: TestData.googleSnapshot(.active),
                                                 refs: ResolvedReferences(tokenAccount: TestData.account, plan: Self.weekly))
        let renewal = try #require(outcome.transactions.first { $0.eventType == .renewed })
        let expiry = try BillingPeriodTests.utc("2025-05-01T09:00:00Z").addingTimeInterval(0.412)
        #expect(renewal.effectiveAt == expiry.addingTimeInterval(-7 * 86_400))
        #expect(renewal.charge == ChargePeriod(productId: "pro_monthly", planId: "plan-weekly", billingPeriod: "P1W",
                                               startAt: expiry.addingTimeInterval(-7 * 86_400), endAt: expiry))
    }

    @Test func aRenewalIsNeverDatedBeforeThePurchase() throws {
        let outcome = try TestData.projectGoogle("google/02_SUBSCRIPTION_RENEWED.json", current: TestData.googleSnapshot(.active),
                                                 refs: ResolvedReferences(tokenAccount: TestData.account, plan: Self.yearly))
        let renewal = try #require(outcome.transactions.first { $0.eventType == .renewed })
        #expect(renewal.effectiveAt == (try BillingPeriodTests.utc("2025-03-01T09:00:00Z")).addingTimeInterval(0.412))
    }

    @Test func everyChargeRowSaysWhatWasBought() throws {
        let apple = try TestData.projectApple("apple/DID_RENEW.json", current: TestData.appleSnapshot(.active, latestTransactionId: "x"))
        let google = try TestData.projectGoogle("google/04_SUBSCRIPTION_PURCHASED.json", current: nil)
        for row in (apple.transactions + google.transactions) where [.purchased, .renewed].contains(row.eventType) {
            let charge = try #require(row.charge, "\(row.transactionKey) has no charge period")
            #expect(charge.planId == "plan-pro")
            #expect(charge.billingPeriod == "P1M")
            #expect(charge.productId != nil)
            #expect(charge.startAt == row.effectiveAt)
            #expect(charge.endAt == row.expiresAt)
        }
    }

    @Test func anAppleRefundIsNegativeAndNamesItsChargeAndReason() throws {
        let outcome = try TestData.projectApple("apple/REFUND.json", current: TestData.appleSnapshot(.active))
        let refund = try #require(outcome.transactions.first { $0.eventType == .refunded })
        let amount = try #require(refund.amount)
        #expect(amount.micros < 0)
        #expect(refund.refund?.kind == .refund)
        let charge = try #require(outcome.transactions.first { $0.eventType != .refunded && $0.amount != nil })
        #expect(refund.refund?.refundedTransactionKey == charge.transactionKey)
        #expect(refund.refund?.appleRevocationReason != nil)
    }

    @Test func anAppleFamilyRevocationIsNoRefund() throws {
        let outcome = try TestData.projectApple("apple/REVOKE.json", current: TestData.appleSnapshot(.active))
        let revoked = try #require(outcome.transactions.first { $0.eventType == .revoked })
        #expect(revoked.refund?.kind == .familyRevoke)
        #expect(revoked.amount == nil)
    }

    @Test func aGoogleChargebackKeepsTheStoreReasonAndItsCharge() throws {
        let loaded = try Fixtures.google("google/02_SUBSCRIPTION_RENEWED.json")
        let voided = try JSONDecoder().decode(VoidedPurchase.self, from: try Fixtures.data("google/extra/VOIDED_PURCHASE.json"))
        var state = loaded.state
        state.notification = nil
        state.voidedPurchase = voided
        let outcome = try Projection.project(current: TestData.googleSnapshot(.active), storeState: .google(state),
                                             trigger: ProjectionTrigger(source: .voidedPurchaseSweep, now: TestData.day(60)),
                                             resolved: TestData.googleRefs())
        let refund = try #require(outcome.transactions.first { $0.eventType == .refunded })
        #expect(refund.refund == RefundDetails(kind: .chargeback, refundedTransactionKey: "GOOGLE:\(TestData.googleToken):GPA.3345-9812-4476-10293..0",
                                               googleVoidedSource: 2, googleVoidedReason: 7))
        #expect(refund.amount == Money(micros: -9_990_000, currencyCode: "USD"))
    }

    @Test func appleBillingRetryWithoutGraceRecordsAHoldEntryAtTheFailedRenewal() throws {
        let outcome = try TestData.projectApple("apple/DID_FAIL_TO_RENEW.json", current: TestData.appleSnapshot(.active))
        #expect(outcome.status == .active)
        let hold = try #require(outcome.transactions.first { $0.eventType == .enteredOnHold })
        #expect(hold.effectiveAt == Date(timeIntervalSince1970: 1_743_501_600))   // expiresDate of the unpaid period
    }
}

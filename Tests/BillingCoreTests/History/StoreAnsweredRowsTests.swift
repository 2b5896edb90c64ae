import Foundation
import Testing
@testable import BillingCore

/// The rows an Orders API answer and a Transaction History transaction state (the reconciliation repair's mapping).
@Suite struct StoreAnsweredRowsTests {
    static let plan = ChargePlan(planId: "00000000-0000-0000-0000-0000000000aa", billingPeriod: "P1M")

    static func order(_ name: String) throws -> (GoogleOrder, Data) {
        let raw = try Fixtures.data("google/orders/\(name).json")
        return (try JSONDecoder().decode(GoogleOrder.self, from: raw), raw)
    }

    @Test func aPartialRefundIsWrittenWithItsAmount() throws {
        let (order, raw) = try Self.order("partial_refund")
        #expect(order.orderHistory?.partialRefundEvents?.count == 2)
        let rows = try GoogleOrderRows.records(order, plan: Self.plan, isTest: false, rawPayload: raw)
        #expect(rows.map(\.transactionKey) == ["GOOGLE:opaque-token-of-the-subscription:GPA.3312-4415-7788-12345..2",
                                               "GOOGLE:opaque-token-of-the-subscription:GPA.3312-4415-7788-12345..2:REFUNDED"])
        let charge = rows[0]
        #expect(charge.eventType == .renewed, "a ..N order is a renewal")
        #expect(charge.amount == Money(micros: 9_990_000, currencyCode: "EUR"))
        #expect(charge.effectiveAt == Date(timeIntervalSince1970: 1_791_187_202), "dated at processedEvent")
        #expect(charge.charge?.planId == Self.plan.planId && charge.charge?.billingPeriod == "P1M")
        #expect(charge.expiresAt == Date(timeIntervalSince1970: 1_793_865_600))
        let refund = rows[1]
        #expect(refund.eventType == .refunded)
        #expect(refund.amount == Money(micros: -4_990_000, currencyCode: "EUR"), "the processed partial refund only, not the pending one")
        #expect(refund.refund?.refundedTransactionKey == charge.transactionKey)
        #expect(refund.effectiveAt == Date(timeIntervalSince1970: 1_791_822_600), "dated at the partial refund's processTime")
    }

    @Test func aFullRefundGivesBackTheTotal() throws {
        let (order, raw) = try Self.order("full_refund")
        let rows = try GoogleOrderRows.records(order, plan: nil, isTest: true, rawPayload: raw)
        let types = rows.map(\.eventType)
        #expect(types == [.purchased, .refunded], "a signup order is a purchase")
        #expect(rows[1].amount == Money(micros: -12_000_000_000, currencyCode: "JPY"))
        #expect(rows.allSatisfy { $0.isTest })
    }

    @Test func aProcessedOrderIsOneCharge() throws {
        var (order, raw) = try Self.order("full_refund")
        order.orderHistory?.refundEvent = nil
        #expect(try GoogleOrderRows.records(order, plan: nil, isTest: false, rawPayload: raw).map(\.eventType) == [.purchased])
        order.orderHistory?.refundEvent = GoogleOrderRefundEvent(eventTime: "2026-01-12T00:00:00Z")
        let whole = try GoogleOrderRows.records(order, plan: nil, isTest: false, rawPayload: raw)
        #expect(whole.last?.amount?.micros == -12_000_000_000, "a full refund without details gives back the whole total")
        order.purchaseToken = nil
        #expect(throws: ProjectionError.self) { try GoogleOrderRows.records(order, plan: nil, isTest: false, rawPayload: raw) }
    }

    @Test func aTransactionOfTheHistoryIsItsChargeAndItsRefund() throws {
        let raw = Data("""
            {"originalTransactionId":"2000000100","transactionId":"2000000105","productId":"premium_monthly",
             "purchaseDate":1790000000000,"expiresDate":1792600000000,"signedDate":1795000000000,"price":9990,"currency":"USD",
             "storefront":"USA","revocationDate":1791000000000,"revocationReason":0,"type":"Auto-Renewable Subscription",
             "environment":"Production","inAppOwnershipType":"PURCHASED"}
            """.utf8)
        let transaction = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: raw)
        let snapshot = SubscriptionSnapshot(provider: .apple, planId: Self.plan.planId, productId: "premium_monthly", status: .active)
        let rows = try AppleHistoryRows.records(transaction, snapshot: snapshot, plan: Self.plan,
                                                trigger: ProjectionTrigger(source: .requery, now: Date(timeIntervalSince1970: 1_795_000_000)),
                                                rawPayload: raw)
        #expect(rows.map(\.transactionKey) == ["APPLE:2000000100:2000000105", "APPLE:2000000100:2000000105:REFUNDED"])
        #expect(rows[0].eventType == .renewed && rows[0].amount == Money(micros: 9_990_000, currencyCode: "USD"))
        #expect(rows[0].effectiveAt == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(rows[1].amount == Money(micros: -9_990_000, currencyCode: "USD"))
        #expect(rows[1].effectiveAt == Date(timeIntervalSince1970: 1_791_000_000), "dated at revocationDate")
        #expect(rows.count == 2, "no state event: the status stays the latest state's")
    }
}

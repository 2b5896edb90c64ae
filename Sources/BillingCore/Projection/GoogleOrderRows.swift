import Foundation

/// The history rows a verified Orders API answer states for one order (docs/RECONCILIATION.md, "Closing the loop").
///
/// - A processed order is a charge: `GOOGLE:{purchaseToken}:{orderId}` (the projection's charge key), PURCHASED for the
///   signup order and RENEWED for a renewal (`..N`), dated at `processedEvent.eventTime` (else `createTime`), its amount
///   the order's `total`, its paid period the line item's service period.
/// - A refunded order is `GOOGLE:{purchaseToken}:{orderId}:REFUNDED` (the voided-purchase sweep's key), dated at the
///   refund, its amount minus what the store gave back: the full refund's total plus every processed partial refund's
///   total. A partial refund is therefore written with its amount, never as the whole charge.
public enum GoogleOrderRows {
    /// The charge and refund rows of `order`; `plan` is the plan its product maps to, `isTest` the subscription's flag,
    /// `rawPayload` the verified answer (copied into each row).
    public static func records(_ order: GoogleOrder, plan: ChargePlan?, isTest: Bool,
                               rawPayload: Data) throws(ProjectionError) -> [BillingTransactionRecord] {
        guard let orderId = order.orderId, let token = order.purchaseToken else {
            throw .incompleteStoreState("an Orders API answer without orderId or purchaseToken")
        }
        let line = order.lineItems?.first
        let chargeKey = "GOOGLE:\(token):\(orderId)"
        var rows: [BillingTransactionRecord] = []
        guard let processedAt = try instant(order.orderHistory?.processedEvent?.eventTime ?? order.createTime) else { return [] }
        let total = try money(order.total)
        let periodStart = try instant(line?.subscriptionDetails?.servicePeriodStartTime) ?? processedAt
        let periodEnd = try instant(line?.subscriptionDetails?.servicePeriodEndTime)
        var charge = BillingTransactionRecord(
            transactionKey: chargeKey, provider: .google, eventType: GoogleOrderId(orderId)?.isRenewal == true ? .renewed : .purchased,
            effectiveAt: processedAt, expiresAt: periodEnd, orderId: orderId, amount: total, isTest: isTest, rawPayload: rawPayload)
        charge.charge = ChargePeriod(productId: line?.productId, planId: plan?.planId, billingPeriod: plan?.billingPeriod,
                                     startAt: periodStart, endAt: periodEnd)
        rows.append(charge)
        let history = order.orderHistory
        let partials = (history?.partialRefundEvents ?? []).filter { $0.state == nil || $0.state == "PROCESSED_SUCCESSFULLY" }
        guard history?.refundEvent != nil || !partials.isEmpty else { return rows }
        var refunded: Int64 = 0
        var currency = total?.currencyCode
        var refundedAt: Date?
        for details in partials.map(\.refundDetails) + [history?.refundEvent?.refundDetails] {
            guard let amount = try money(details?.total) else { continue }
            refunded += amount.micros
            currency = amount.currencyCode
        }
        for event in partials { refundedAt = try later(refundedAt, instant(event.processTime ?? event.createTime)) }
        refundedAt = try later(refundedAt, instant(history?.refundEvent?.eventTime))
        // A full refund without details gives back the whole total.
        if history?.refundEvent != nil, history?.refundEvent?.refundDetails?.total == nil { refunded += total?.micros ?? 0 }
        var refund = BillingTransactionRecord(
            transactionKey: chargeKey + ":REFUNDED", provider: .google, eventType: .refunded, effectiveAt: refundedAt ?? processedAt,
            expiresAt: periodEnd, orderId: orderId, amount: currency.map { Money(micros: -refunded, currencyCode: $0) },
            isTest: isTest, churnReason: .refund, rawPayload: rawPayload)
        refund.refund = RefundDetails(kind: .refund, refundedTransactionKey: chargeKey)
        rows.append(refund)
        return rows
    }

    private static func instant(_ text: String?) throws(ProjectionError) -> Date? {
        guard let text else { return nil }
        do {
            return try RFC3339Timestamp(text).date
        } catch {
            throw .incompleteStoreState("Orders API time '\(text)': \(error)")
        }
    }

    private static func money(_ value: GoogleMoney?) throws(ProjectionError) -> Money? {
        do {
            return try value?.money()
        } catch {
            throw .invalidAmount(error)
        }
    }

    private static func later(_ a: Date?, _ b: Date?) -> Date? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }
}

/// One cell of the expected metrics: a calendar month × provider × currency, in its own currency (`view` "local")
/// or converted to USD over all of the provider's currencies (`view` "reporting"). Money is in micros, each value
/// rounded half to even once from its exact sum; counts are subscriptions (one billing account each in this world).
public struct ExpectedMetricsRow: Sendable, Hashable, Codable {
    public var month: String
    /// The snapshot instant: the month's last millisecond, or the as-of instant for the current month.
    public var snapshotAt: String
    public var provider: String
    public var currency: String
    public var view: String
    public var mrrMicros: Int64
    public var payingSubscribers: Int
    /// The bridge from the previous month's snapshot: end = start + fx + new + expansion − contraction − churn + reactivation.
    public var startMrrMicros: Int64
    /// The balancing term: the exchange-rate effect (reporting view) plus the rounding of the other cells (≤ a few micros).
    public var fxMicros: Int64
    public var newMicros: Int64
    public var expansionMicros: Int64
    public var contractionMicros: Int64
    public var churnMicros: Int64
    public var reactivationMicros: Int64
    public var newCount: Int
    public var expansionCount: Int
    public var contractionCount: Int
    public var churnCount: Int
    public var reactivationCount: Int
    /// Refunds and chargebacks dated in this month (local view only; chargebacks are a subset).
    public var refundsByRefundMonthCount: Int?
    public var refundsByRefundMonthMicros: Int64?
    public var chargebacksCount: Int?
    public var chargebacksMicros: Int64?
    /// Refunds and chargebacks whose refunded charge is dated in this month (local view only).
    public var refundsByChargeMonthCount: Int?
    public var refundsByChargeMonthMicros: Int64?
    /// Family-sharing revocations in this month (no money moves).
    public var familyRevocations: Int?
    /// Billing failures that entered grace in this month, and what became of them by the as-of instant.
    public var graceEntered: Int?
    public var graceRecovered: Int?
    public var holdEntered: Int?
    public var holdRecovered: Int?
    public var billingChurned: Int?
    public var billingOpen: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case month, snapshotAt = "snapshot_at", provider, currency, view, mrrMicros = "mrr_micros"
        case payingSubscribers = "paying_subscribers", startMrrMicros = "start_mrr_micros", fxMicros = "fx_micros"
        case newMicros = "new_micros", expansionMicros = "expansion_micros", contractionMicros = "contraction_micros"
        case churnMicros = "churn_micros", reactivationMicros = "reactivation_micros", newCount = "new_count"
        case expansionCount = "expansion_count", contractionCount = "contraction_count", churnCount = "churn_count"
        case reactivationCount = "reactivation_count", refundsByRefundMonthCount = "refunds_by_refund_month_count"
        case refundsByRefundMonthMicros = "refunds_by_refund_month_micros", chargebacksCount = "chargebacks_count"
        case chargebacksMicros = "chargebacks_micros", refundsByChargeMonthCount = "refunds_by_charge_month_count"
        case refundsByChargeMonthMicros = "refunds_by_charge_month_micros", familyRevocations = "family_revocations"
        case graceEntered = "grace_entered", graceRecovered = "grace_recovered", holdEntered = "hold_entered"
        case holdRecovered = "hold_recovered", billingChurned = "billing_churned", billingOpen = "billing_open"
    }

    /// True when the bridge identity holds exactly.
    public var bridgeHolds: Bool {
        mrrMicros == startMrrMicros + fxMicros + newMicros + expansionMicros - contractionMicros - churnMicros + reactivationMicros
    }

    /// The CSV header (the JSON keys in declaration order).
    static var csvHeader: String { CodingKeys.allCases.map(\.rawValue).joined(separator: ",") }

    /// The row as CSV (empty fields for values the view does not carry).
    var csvLine: String {
        let optional: [String?] = [refundsByRefundMonthCount.map(String.init), refundsByRefundMonthMicros.map(String.init),
                                   chargebacksCount.map(String.init), chargebacksMicros.map(String.init),
                                   refundsByChargeMonthCount.map(String.init), refundsByChargeMonthMicros.map(String.init),
                                   familyRevocations.map(String.init), graceEntered.map(String.init), graceRecovered.map(String.init),
                                   holdEntered.map(String.init), holdRecovered.map(String.init), billingChurned.map(String.init),
                                   billingOpen.map(String.init)]
        let fixed = [month, snapshotAt, provider, currency, view, String(mrrMicros), String(payingSubscribers), String(startMrrMicros),
                     String(fxMicros), String(newMicros), String(expansionMicros), String(contractionMicros), String(churnMicros),
                     String(reactivationMicros), String(newCount), String(expansionCount), String(contractionCount),
                     String(churnCount), String(reactivationCount)]
        return (fixed + optional.map { $0 ?? "" }).joined(separator: ",")
    }
}

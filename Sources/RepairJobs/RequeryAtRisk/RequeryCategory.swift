/// Why a subscription was selected for re-query, in the backfill priority (first = highest; docs/RUNBOOK.md).
public enum RequeryCategory: String, CaseIterable, Sendable, Comparable {
    /// An open reconciliation item the store can still answer for points at the subscription (`ReconciliationTargets`):
    /// its history is repaired from Transaction History or the Orders API. First: finance closes the month on it, and
    /// the freshness window does not hold it back.
    case reconciliation = "reconciliation"
    /// An active entitlement whose period has ended, or ends within the window, with no renewal recorded.
    case periodEnding = "period_ending"
    case inGracePeriod = "in_grace_period"
    case onHold = "on_hold"
    case pending = "pending"
    /// Google acknowledgement still PENDING.
    case acknowledgementPending = "acknowledgement_pending"
    /// A price change PENDING (not yet applied, possibly due).
    case priceChange = "price_change"
    /// Refunded or revoked within the refund window: the entitlement must be off.
    case refundedRecently = "refunded_recently"
    /// A stored webhook of the subscription failed processing (`processing_error`).
    case failedEvent = "failed_event"
    /// The staleness sweep: oldest `last_verified_at` first.
    case stale = "stale"

    /// 1 for the highest priority.
    public var priority: Int { (Self.allCases.firstIndex(of: self) ?? Self.allCases.count) + 1 }

    /// The category of priority `priority`.
    public static func of(priority: Int) -> RequeryCategory? {
        allCases.indices.contains(priority - 1) ? allCases[priority - 1] : nil
    }

    /// Orders by priority.
    public static func < (lhs: RequeryCategory, rhs: RequeryCategory) -> Bool { lhs.priority < rhs.priority }
}

import BillingCore
import Foundation
import Postgres

/// One field where the database differed from the store, found by a re-query (a `drift_event` row).
public struct DriftFinding: Sendable, Hashable {
    /// The drift kinds `drift_event.kind` allows.
    public enum Kind: String, Sendable, CaseIterable {
        case status, entitlement, expiry, price, acknowledgement
        case missingTransaction = "missing_transaction"
    }

    public let kind: Kind
    public let field: String
    public let databaseValue: String?
    public let storeValue: String?

    /// Compares what the database held with what the store says: status, entitlement, expiry, price,
    /// acknowledgement, and history rows the database lacked. Pure; the writer records the result.
    ///
    /// `priceChangeBefore` is the state of the database's latest price-change row for the store's announced new price
    /// (`.some(nil)` when it has none; `nil` when the store announces no price change): a missed consent or a missed
    /// announcement shows as `price` drift on `subscription_price_change.state`.
    public static func compare(database before: SubscriptionSnapshot?, entitledBefore: Bool?, outcome: ProjectionOutcome,
                               missingTransactionKeys: [String], priceChangeBefore: String?? = nil) -> [DriftFinding] {
        var findings: [DriftFinding] = []
        let after = outcome.subscription
        func add(_ kind: Kind, _ field: String, _ old: String?, _ new: String?) {
            if old != new { findings.append(DriftFinding(kind: kind, field: field, databaseValue: old, storeValue: new)) }
        }
        if let before {
            add(.status, "status", before.status.rawValue, after.status.rawValue)
            add(.expiry, "current_period_end_at", before.currentPeriodEndAt.map(timestamp), after.currentPeriodEndAt.map(timestamp))
            add(.price, "current_recurring_price", before.currentPrice.map(money), after.currentPrice.map(money))
            add(.acknowledgement, "acknowledgement_status", before.acknowledgementStatus.rawValue, after.acknowledgementStatus.rawValue)
            if let stored = priceChangeBefore, let change = outcome.priceChange {
                add(.price, "subscription_price_change.state", stored, change.state.rawValue)
            }
        }
        if outcome.entitlement.billingAccountId != nil {
            add(.entitlement, "entitlement.is_active", entitledBefore.map { String($0) } ?? "absent", String(outcome.entitlement.isActive))
        }
        for key in missingTransactionKeys {
            findings.append(DriftFinding(kind: .missingTransaction, field: "billing_transaction", databaseValue: nil, storeValue: key))
        }
        return findings
    }

    private static func timestamp(_ date: Date) -> String { ISO8601.format(date) }
    private static func money(_ money: Money) -> String { "\(money.micros) \(money.currencyCode)" }
}

/// ISO 8601 text for drift values.
enum ISO8601 {
    static func format(_ date: Date) -> String { PostgresTimestamp.iso8601(date) }
}

/// What kind of money-back a REFUNDED / REVOKED history row records (`billing_transaction.refund_kind`).
public enum RefundKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A refund the store granted (Apple REFUND, Google void other than a chargeback).
    case refund = "REFUND"
    /// A card chargeback (Google voidedReason 7).
    case chargeback = "CHARGEBACK"
    /// Access removed from a Family Sharing member (Apple revocationType FAMILY_REVOKE / REVOKE); no money moves.
    case familyRevoke = "FAMILY_REVOKE"
}

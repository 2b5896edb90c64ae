/// What a refund or revocation row says about the money given back and why (store reason codes as sent).
public struct RefundDetails: Sendable, Hashable {
    public var kind: RefundKind
    /// The `transactionKey` of the charge refunded (Apple `APPLE:{original}:{transactionId}`, Google
    /// `GOOGLE:{token}:{voided orderId}`).
    public var refundedTransactionKey: String?
    /// Apple `revocationReason` (0 other, 1 app issue).
    public var appleRevocationReason: Int?
    /// Apple `revocationType` (REFUND_FULL, REFUND_PRORATED, FAMILY_REVOKE).
    public var appleRevocationType: String?
    /// Google `voidedSource` (0 user, 1 developer, 2 Google).
    public var googleVoidedSource: Int?
    /// Google `voidedReason` (0 other … 7 chargeback, 8 unacknowledged purchase).
    public var googleVoidedReason: Int?

    /// Creates refund details.
    public init(kind: RefundKind, refundedTransactionKey: String?, appleRevocationReason: Int? = nil,
                appleRevocationType: String? = nil, googleVoidedSource: Int? = nil, googleVoidedReason: Int? = nil) {
        self.kind = kind
        self.refundedTransactionKey = refundedTransactionKey
        self.appleRevocationReason = appleRevocationReason
        self.appleRevocationType = appleRevocationType
        self.googleVoidedSource = googleVoidedSource
        self.googleVoidedReason = googleVoidedReason
    }
}

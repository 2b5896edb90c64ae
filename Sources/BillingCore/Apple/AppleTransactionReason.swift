/// A transaction's `transactionReason`.
public enum AppleTransactionReason: String, Sendable, Hashable, CaseIterable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}

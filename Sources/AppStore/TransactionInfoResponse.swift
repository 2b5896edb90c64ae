/// Get Transaction Info: one signed transaction.
public struct TransactionInfoResponse: Sendable, Decodable {
    public var signedTransactionInfo: String?
}

/// A transaction's `commitmentInfo`: where a charge sits in a subscription commitment (Apple's field names).
public struct TransactionCommitmentInfo: Sendable, Equatable, Decodable {
    /// The number of the billing period this charge covers within the commitment.
    public var billingPeriodNumber: Int?
    /// When the commitment ends.
    public var commitmentExpiresDate: AppleTimestamp?
    /// The price after the commitment ends, in milliunits of the transaction's currency.
    public var commitmentPrice: Int64?
    /// How many billing periods the commitment holds.
    public var totalBillingPeriods: Int?

    /// Creates commitment info with every field nil.
    public init() {}
}

import Postgres

/// One claimed work item of a run, with the store identity to query it by.
public struct RequeryWorkItem: Sendable, Hashable {
    public let id: Int64
    public let subscriptionId: String
    public let category: RequeryCategory
    public let isTest: Bool
    /// The subscription's provider and store identity, read with the claim.
    public let target: RequeryTarget
}

/// What a re-query needs to know of a subscription: its provider, environment and store identity.
public struct RequeryTarget: Sendable, Hashable {
    public let subscriptionId: String
    public let provider: String
    public let isSandbox: Bool
    /// Apple's originalTransactionId (Apple subscriptions).
    public let originalTransactionId: String?
    /// The current Google purchase token (Google subscriptions).
    public let purchaseToken: String?

    /// The select-list that reads a target from `subscription s` (joined with `apple_subscription_identity a`).
    static let columns = """
        s.id::text AS target_subscription_id, s.provider::text AS target_provider, s.is_sandbox AS target_is_sandbox,
        a.original_transaction_id AS target_original_transaction_id,
        (SELECT t.purchase_token FROM google_purchase_token t WHERE t.subscription_id = s.id AND t.is_current
         ORDER BY t.created_at DESC LIMIT 1) AS target_purchase_token
        """

    /// The target in a row that selected `columns`.
    init(_ row: PostgresRow) throws {
        subscriptionId = try row.decode(String.self, "target_subscription_id")
        provider = try row.decode(String.self, "target_provider")
        isSandbox = try row.decode(Bool.self, "target_is_sandbox")
        originalTransactionId = try row.decodeIfPresent(String.self, "target_original_transaction_id")
        purchaseToken = try row.decodeIfPresent(String.self, "target_purchase_token")
    }
}

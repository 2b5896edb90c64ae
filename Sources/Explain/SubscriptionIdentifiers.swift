import Postgres

/// Collects the identifiers explain must mask: the subscription's own (its id, Apple identity, purchase tokens,
/// transaction-key parts, order ids, notification ids) and the other subscriptions' it can meet (linked tokens).
enum SubscriptionIdentifiers {
    /// The mask for subscription `id`.
    static func mask(for id: String, rawOwnIdentifiers: Bool, database: PostgresConnection) throws -> IdentifierMask {
        var own: Set<String> = [id]
        var foreign: Set<String> = []
        for row in try database.query("""
            SELECT original_transaction_id AS value FROM apple_subscription_identity WHERE subscription_id = $1::uuid
            UNION SELECT latest_transaction_id FROM apple_subscription_identity WHERE subscription_id = $1::uuid
            UNION SELECT app_account_token::text FROM apple_subscription_identity WHERE subscription_id = $1::uuid
            UNION SELECT purchase_token FROM google_purchase_token WHERE subscription_id = $1::uuid
            UNION SELECT order_id FROM billing_transaction WHERE subscription_id = $1::uuid
            UNION SELECT e.provider_event_id FROM inbound_webhook_event e
                  JOIN billing_transaction b ON b.inbound_event_id = e.id WHERE b.subscription_id = $1::uuid
            """, [id]).rows {
            if let value = try row.decodeIfPresent(String.self, "value") { own.insert(value) }
        }
        for row in try database.query("""
            SELECT transaction_key AS key FROM billing_transaction WHERE subscription_id = $1::uuid
            UNION SELECT refunded_transaction_key FROM billing_transaction WHERE subscription_id = $1::uuid
            """, [id]).rows {
            guard let key = try row.decodeIfPresent(String.self, "key") else { continue }
            own.formUnion(identifierParts(of: key))
        }
        for row in try database.query("""
            SELECT linked_purchase_token AS value FROM google_purchase_token
            WHERE subscription_id = $1::uuid AND linked_purchase_token IS NOT NULL
            """, [id]).rows {
            if let value = try row.decodeIfPresent(String.self, "value"), !own.contains(value) { foreign.insert(value) }
        }
        return IdentifierMask(own: own, foreign: foreign, rawOwnIdentifiers: rawOwnIdentifiers)
    }

    /// The identifier parts of a transaction key: the two after the provider (`APPLE:{original}:{transaction}`,
    /// `GOOGLE:{token}:{order}`, `GOOGLE:{token}:{productId}:…`); event suffixes and amounts after them are not identifiers.
    static func identifierParts(of key: String) -> [String] {
        key.split(separator: ":").dropFirst().prefix(2).map(String.init)
    }
}

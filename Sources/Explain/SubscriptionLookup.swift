import Foundation
import JobKit
import Postgres

/// Finds the one subscription an identifier names: the subscription id, an Apple originalTransactionId (or latest
/// transactionId), a Google purchase token, or an order id of one of its transactions.
public enum SubscriptionLookup {
    /// What the lookup searches, for the message when nothing matches.
    public static let searched = "subscription.id, apple_subscription_identity.original_transaction_id / latest_transaction_id, "
        + "google_purchase_token.purchase_token, billing_transaction.order_id"

    /// The subscription id (lower-case uuid text) `identifier` names; exit 2 (usage) when none or several match.
    /// An identifier that matches nothing is echoed as typed (it names no stored subscription); one that matches
    /// several appears as `shown` (masked unless `--raw-ids`).
    public static func resolve(_ identifier: String, shown: String, database: PostgresConnection) throws -> String {
        let rows = try database.query("""
            SELECT id::text AS id FROM subscription WHERE id = $2::uuid
            UNION SELECT subscription_id::text FROM apple_subscription_identity
                  WHERE original_transaction_id = $1 OR latest_transaction_id = $1
            UNION SELECT subscription_id::text FROM google_purchase_token WHERE purchase_token = $1
            UNION SELECT subscription_id::text FROM billing_transaction WHERE order_id = $1
            """, [identifier, UUID(uuidString: identifier)]).rows
        let ids = try rows.map { try $0.decode(String.self, "id") }
        switch ids.count {
        case 1: return ids[0]
        case 0: throw JobError.usage("no subscription matches '\(identifier)' (searched \(searched))")
        default: throw JobError.usage("'\(shown)' matches \(ids.count) subscriptions (searched \(searched)); explain needs exactly one")
        }
    }
}

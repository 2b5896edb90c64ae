import Postgres

/// A Google subscription whose database acknowledgement status is PENDING, with its current purchase token.
struct AckRescueCandidate: Sendable, Equatable {
    let subscriptionId: String
    let purchaseToken: String

    /// Google subscriptions with acknowledgement PENDING, nearest to the 3-day deadline first (oldest purchase or
    /// period start first), each with its current purchase token.
    static func select(_ database: PostgresConnection, limit: Int) throws -> [AckRescueCandidate] {
        try database.query("""
            SELECT s.id::text AS id, tok.purchase_token
            FROM subscription s
            CROSS JOIN LATERAL (SELECT t.purchase_token FROM google_purchase_token t
                                WHERE t.subscription_id = s.id AND t.is_current
                                ORDER BY t.created_at DESC LIMIT 1) tok
            WHERE s.provider = 'GOOGLE' AND s.acknowledgement_status = 'PENDING'
            ORDER BY COALESCE(s.current_period_start_at, s.created_at), s.id
            LIMIT $1
            """, [limit]).rows.map {
            AckRescueCandidate(subscriptionId: try $0.decode(String.self, "id"), purchaseToken: try $0.decode(String.self, "purchase_token"))
        }
    }
}

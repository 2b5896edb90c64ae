import Foundation
import Postgres

/// Minimal rows that other rows need (user, account, plan, subscription), inserted through SQL.
public struct SeedRows {
    public let userID: UUID
    public let accountID: UUID
    public let planID: UUID
    public let subscriptionID: UUID

    /// Inserts one user, billing account, monthly plan and Apple subscription.
    public static func insert(_ db: PostgresConnection, suffix: String = UUID().uuidString) throws -> SeedRows {
        let user = try db.query("INSERT INTO app_user (email) VALUES ($1) RETURNING id", ["u\(suffix)@example.com"]).first
        let userID = try user?.decode(UUID.self, "id") ?? UUID()
        let account = try db.query("INSERT INTO billing_account (user_id) VALUES ($1) RETURNING id", [userID]).first
        let accountID = try account?.decode(UUID.self, "id") ?? UUID()
        let plan = try db.query("""
            INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ($1, 'Pro monthly', 'MONTHLY', 'P1M') RETURNING id
            """, ["PRO_MONTHLY_\(suffix)"]).first
        let planID = try plan?.decode(UUID.self, "id") ?? UUID()
        let subscription = try db.query("""
            INSERT INTO subscription (provider, billing_account_id, plan_id, status) VALUES ('APPLE', $1, $2, 'ACTIVE') RETURNING id
            """, [accountID, planID]).first
        let subscriptionID = try subscription?.decode(UUID.self, "id") ?? UUID()
        return SeedRows(userID: userID, accountID: accountID, planID: planID, subscriptionID: subscriptionID)
    }
}

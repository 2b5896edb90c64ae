import Foundation
import Postgres

/// A fresh migrated database holding `SeedRows` plus one Apple product mapped to the seeded plan: what the projection
/// writer needs to resolve an Apple store state to its billing account (by account token) and plan.
public struct MappedAppleAccount {
    public let configuration: PostgresConfiguration
    public let seed: SeedRows
    public let accountToken: UUID

    /// Creates the database `name`, seeds it and maps `product` (external key `apple-pro`) to the seeded plan.
    public static func make(_ name: String, product: String) throws -> MappedAppleAccount {
        let (configuration, db) = try TestDatabase.migrated(name)
        defer { db.close() }
        let seed = try SeedRows.insert(db)
        guard let token = try db.query("SELECT account_token FROM billing_account WHERE id = $1", [seed.accountID]).first?
            .decode(UUID.self, "account_token") else { throw MissingSeedRow(what: "account token of the seeded account") }
        try db.execute("INSERT INTO store_product_mapping (provider, plan_id, product_id, external_key) VALUES ('APPLE', $1, $2, 'apple-pro')",
                       [seed.planID, product])
        return MappedAppleAccount(configuration: configuration, seed: seed, accountToken: token)
    }
}

/// A seeded row that should exist was not found.
public struct MissingSeedRow: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "missing seed row: \(what)" }
}

import BillingCore
import Foundation
import Postgres

/// The database look-ups a projection needs before it runs: the account an account token names and
/// the plan a store product maps to. The projection itself does no I/O.
struct ReferenceResolver {
    let database: PostgresConnection

    /// References for a store state: its account token's billing account and its product's plan.
    func references(for storeState: StoreState) throws -> ResolvedReferences {
        switch storeState {
        case .apple(let apple):
            let account = try apple.transaction.appAccountToken.flatMap(account(forToken:))
            let plan = try apple.transaction.productId.flatMap { try self.plan(.apple, productId: $0, basePlanId: "", offerId: "") }
            return ResolvedReferences(tokenAccount: account, plan: plan)
        case .google(let google):
            let identifiers = google.purchase?.externalAccountIdentifiers
            let account = try identifiers?.obfuscatedExternalAccountId.flatMap(account(forToken:))
            let item = google.purchase?.items.first
            let plan = try item?.productId.flatMap {
                try self.plan(.google, productId: $0, basePlanId: item?.offerDetails?.basePlanId ?? "", offerId: item?.offerDetails?.offerId ?? "")
            }
            return ResolvedReferences(tokenAccount: account, plan: plan)
        }
    }

    /// The billing account whose `account_token` equals `token` (a UUID); nil when none does.
    func account(forToken token: String) throws -> ResolvedAccount? {
        guard let uuid = UUID(uuidString: token) else { return nil }
        guard let row = try database.query("SELECT id::text AS id FROM billing_account WHERE account_token = $1", [uuid]).first else {
            return nil
        }
        let id = try row.decode(String.self, "id")
        return ResolvedAccount(id: id, hasHadTrial: try SnapshotReader(database: database).accountHasHadTrial(id))
    }

    /// The plan a product maps to: the exact (product, base plan, offer) row, else the product's row without an offer.
    func plan(_ provider: BillingProvider, productId: String, basePlanId: String, offerId: String) throws -> ResolvedPlan? {
        let row = try database.query("""
            SELECT m.plan_id::text AS plan_id, m.base_plan_id, m.offer_id, p.interval_unit
            FROM store_product_mapping m JOIN plan p ON p.id = m.plan_id
            WHERE m.provider = $1::billing_provider AND m.product_id = $2 AND m.base_plan_id IN ($3, '') AND m.offer_id IN ($4, '')
            ORDER BY (m.base_plan_id = $3) DESC, (m.offer_id = $4) DESC LIMIT 1
            """, [provider.rawValue, productId, basePlanId, offerId]).first
        guard let row else { return nil }
        return ResolvedPlan(planId: try row.decode(String.self, "plan_id"), provider: provider, productId: productId,
                            basePlanId: try row.decode(String.self, "base_plan_id"), offerId: try row.decode(String.self, "offer_id"),
                            intervalUnit: try row.decode(IntervalUnit.self, "interval_unit"))
    }
}

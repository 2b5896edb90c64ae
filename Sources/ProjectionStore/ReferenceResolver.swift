import BillingCore
import Foundation
import Postgres

/// The database look-ups a projection needs before it runs: the account an account token names and
/// the plan a store product maps to. The projection itself does no I/O.
enum ReferenceResolver {
    /// References for a store state, read in one statement: its account token's billing account (and whether that
    /// account ever had a trial) and the plan its product maps to.
    static func references(for storeState: StoreState) -> PipelinedStep<ResolvedReferences> {
        switch storeState {
        case .apple(let apple):
            return resolve(.apple, accountToken: apple.transaction.appAccountToken, productId: apple.transaction.productId,
                               basePlanId: "", offerId: "")
        case .google(let google):
            let item = google.purchase?.items.first
            return resolve(.google, accountToken: google.purchase?.externalAccountIdentifiers?.obfuscatedExternalAccountId,
                               productId: item?.productId, basePlanId: item?.offerDetails?.basePlanId ?? "",
                               offerId: item?.offerDetails?.offerId ?? "")
        }
    }

    /// The billing account whose `account_token` equals `accountToken` (a UUID; anything else matches none), and the
    /// plan a product maps to: the exact (product, base plan, offer) row, else the product's row without an offer.
    private static func resolve(_ provider: BillingProvider, accountToken: String?, productId: String?, basePlanId: String,
                         offerId: String) -> PipelinedStep<ResolvedReferences> {
        let token = accountToken.flatMap { UUID(uuidString: $0) }
        return PipelinedStep(statement: PostgresStatement("""
            SELECT account.id::text AS account_id,
                   EXISTS (SELECT 1 FROM subscription t WHERE t.billing_account_id = account.id AND t.trial_ends_at IS NOT NULL)
                     AS account_has_had_trial,
                   mapping.plan_id::text AS plan_id, mapping.base_plan_id, mapping.offer_id, mapping.interval_unit::text AS interval_unit,
                   mapping.billing_period
            FROM (SELECT 1) AS one
            LEFT JOIN billing_account account ON account.account_token = $1::uuid
            LEFT JOIN LATERAL (
                SELECT m.plan_id, m.base_plan_id, m.offer_id, p.interval_unit, p.billing_period
                FROM store_product_mapping m JOIN plan p ON p.id = m.plan_id
                WHERE m.provider = $2::billing_provider AND m.product_id = $3 AND m.base_plan_id IN ($4, '') AND m.offer_id IN ($5, '')
                ORDER BY (m.base_plan_id = $4) DESC, (m.offer_id = $5) DESC LIMIT 1) mapping ON true
            """, [token, provider.rawValue, productId, basePlanId, offerId])) { result in
            guard let row = result.first else { return ResolvedReferences(tokenAccount: nil, plan: nil) }
            return try Self.references(row, provider: provider, productId: productId)
        }
    }

    private static func references(_ row: PostgresRow, provider: BillingProvider, productId: String?) throws -> ResolvedReferences {
        let account = try row.decodeIfPresent(String.self, "account_id").map {
            ResolvedAccount(id: $0, hasHadTrial: try row.decode(Bool.self, "account_has_had_trial"))
        }
        let plan = try row.decodeIfPresent(String.self, "plan_id").map { planId in
            ResolvedPlan(planId: planId, provider: provider, productId: productId ?? "",
                         basePlanId: try row.decode(String.self, "base_plan_id"), offerId: try row.decode(String.self, "offer_id"),
                         intervalUnit: try row.decode(IntervalUnit.self, "interval_unit"),
                         billingPeriod: BillingPeriod(iso: try row.decode(String.self, "billing_period")))
        }
        return ResolvedReferences(tokenAccount: account, plan: plan)
    }
}

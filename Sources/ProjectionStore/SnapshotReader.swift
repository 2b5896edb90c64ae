import BillingCore
import Foundation
import Postgres

/// Reads a subscription as the projection sees it (`SubscriptionSnapshot`), optionally locking its row.
struct SnapshotReader {
    let database: PostgresConnection

    /// The subscription id a key names, or nil when the database does not know it.
    func locate(_ key: SubscriptionKey) throws -> String? {
        switch key {
        case .id(let id):
            return try database.query("SELECT id::text AS id FROM subscription WHERE id = $1::uuid", [id]).first?.decode(String.self, "id")
        case .apple(let originalTransactionId):
            return try database.query(
                "SELECT subscription_id::text AS id FROM apple_subscription_identity WHERE original_transaction_id = $1",
                [originalTransactionId]).first?.decode(String.self, "id")
        case .google(let token, let linked):
            // The token itself, else the token it replaced: a linked token continues that subscription.
            let sql = "SELECT subscription_id::text AS id FROM google_purchase_token WHERE purchase_token = $1"
            if let row = try database.query(sql, [token]).first { return try row.decode(String.self, "id") }
            guard let linked else { return nil }
            return try database.query(sql, [linked]).first?.decode(String.self, "id")
        }
    }

    /// Locks the subscription row (`FOR UPDATE`) and reads its snapshot.
    func lockAndRead(id: String) throws -> SubscriptionSnapshot? {
        guard let row = try database.query("SELECT * FROM subscription WHERE id = $1::uuid FOR UPDATE", [id]).first else { return nil }
        let provider = try row.decode(BillingProvider.self, "provider")
        let accountId = try row.decodeIfPresent(UUID.self, "billing_account_id")?.uuidString.lowercased()
        let currency = try row.decodeIfPresent(String.self, "current_currency_code")
        let micros = try row.decodeIfPresent(Int64.self, "current_recurring_price_micros")
        var snapshot = SubscriptionSnapshot(
            id: id, provider: provider, billingAccountId: accountId,
            planId: try row.decode(UUID.self, "plan_id").uuidString.lowercased(),
            productId: try row.decodeIfPresent(String.self, "product_id"),
            status: try row.decode(SubscriptionStatus.self, "status"),
            acknowledgementStatus: try row.decode(AcknowledgementStatus.self, "acknowledgement_status"),
            isTestPurchase: try row.decode(Bool.self, "is_test_purchase"),
            autoRenew: try row.decode(Bool.self, "auto_renew"),
            currentPrice: currency.flatMap { code in micros.map { Money(micros: $0, currencyCode: code) } },
            currentPeriodStartAt: try row.decodeIfPresent(Date.self, "current_period_start_at"),
            currentPeriodEndAt: try row.decodeIfPresent(Date.self, "current_period_end_at"),
            trialEndsAt: try row.decodeIfPresent(Date.self, "trial_ends_at"),
            cancelAt: try row.decodeIfPresent(Date.self, "cancel_at"),
            canceledAt: try row.decodeIfPresent(Date.self, "canceled_at"),
            lastVerifiedAt: try row.decodeIfPresent(Date.self, "last_verified_at"),
            lastStoreStateAt: try row.decodeIfPresent(Date.self, "last_store_state_at"))
        switch provider {
        case .apple: snapshot.apple = try appleIdentity(id)
        case .google: snapshot.google = try currentToken(id)
        case .web: break
        }
        snapshot.openPriceChange = try openPriceChange(id, provider: provider)
        if let accountId { snapshot.accountHasHadTrial = try accountHasHadTrial(accountId) }
        return snapshot
    }

    /// Whether any subscription of the account ever had a free trial.
    func accountHasHadTrial(_ accountId: String) throws -> Bool {
        try database.query("""
            SELECT EXISTS (SELECT 1 FROM subscription WHERE billing_account_id = $1::uuid AND trial_ends_at IS NOT NULL) AS had
            """, [accountId]).first?.decode(Bool.self, "had") ?? false
    }

    /// The entitlement row for an account and plan: (is_active, source subscription id).
    func entitlement(accountId: String, planId: String) throws -> (isActive: Bool, source: String?)? {
        guard let row = try database.query("""
            SELECT is_active, source_subscription_id::text AS source FROM entitlement
            WHERE billing_account_id = $1::uuid AND plan_id = $2::uuid
            """, [accountId, planId]).first else { return nil }
        return (try row.decode(Bool.self, "is_active"), try row.decodeIfPresent(String.self, "source"))
    }

    /// The state of the subscription's latest price-change row for the same new price (any state), or nil.
    func priceChangeState(subscriptionId: String, currencyCode: String, newAmountMicros: Int64) throws -> String? {
        try database.query("""
            SELECT state::text AS state FROM subscription_price_change
            WHERE subscription_id = $1::uuid AND currency_code = $2 AND new_amount_micros = $3
            ORDER BY created_at DESC, id DESC LIMIT 1
            """, [subscriptionId, currencyCode, newAmountMicros]).first?.decode(String.self, "state")
    }

    /// Which of `keys` already exist in `billing_transaction`.
    func existingTransactionKeys(_ keys: [String]) throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        let rows = try database.query("SELECT transaction_key FROM billing_transaction WHERE transaction_key = ANY($1::text[])",
                                      [PostgresTextArray(keys)]).rows
        return Set(try rows.map { try $0.decode(String.self, "transaction_key") })
    }

    private func appleIdentity(_ id: String) throws -> AppleSubscriptionIdentity? {
        guard let row = try database.query("""
            SELECT original_transaction_id, latest_transaction_id, app_account_token::text AS token
            FROM apple_subscription_identity WHERE subscription_id = $1::uuid
            """, [id]).first else { return nil }
        return AppleSubscriptionIdentity(originalTransactionId: try row.decode(String.self, "original_transaction_id"),
                                         latestTransactionId: try row.decodeIfPresent(String.self, "latest_transaction_id"),
                                         appAccountToken: try row.decodeIfPresent(String.self, "token"))
    }

    private func currentToken(_ id: String) throws -> GoogleTokenIdentity? {
        guard let row = try database.query("""
            SELECT purchase_token, linked_purchase_token FROM google_purchase_token
            WHERE subscription_id = $1::uuid AND is_current ORDER BY updated_at DESC, created_at DESC LIMIT 1
            """, [id]).first else { return nil }
        return GoogleTokenIdentity(purchaseToken: try row.decode(String.self, "purchase_token"),
                                   linkedPurchaseToken: try row.decodeIfPresent(String.self, "linked_purchase_token"))
    }

    private func openPriceChange(_ id: String, provider: BillingProvider) throws -> BillingCore.SubscriptionPriceChange? {
        guard let row = try database.query("""
            SELECT * FROM subscription_price_change WHERE subscription_id = $1::uuid AND state IN ('PENDING', 'ACCEPTED')
            ORDER BY created_at DESC LIMIT 1
            """, [id]).first else { return nil }
        return BillingCore.SubscriptionPriceChange(
            provider: provider, mode: try row.decode(PriceChangeMode.self, "mode"), state: try row.decode(PriceChangeState.self, "state"),
            currencyCode: try row.decode(String.self, "currency_code"), oldAmountMicros: try row.decodeIfPresent(Int64.self, "old_amount_micros"),
            newAmountMicros: try row.decode(Int64.self, "new_amount_micros"),
            expectedChargeAt: try row.decodeIfPresent(Date.self, "expected_charge_at"),
            effectiveAt: try row.decodeIfPresent(Date.self, "effective_at"),
            sourceEventKey: try row.decodeIfPresent(String.self, "source_event_key"))
    }
}

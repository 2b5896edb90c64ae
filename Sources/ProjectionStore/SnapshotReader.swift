import BillingCore
import Foundation
import Postgres

/// Reads a subscription as the projection sees it (`SubscriptionSnapshot`), optionally locking its row.
struct SnapshotReader {
    let database: PostgresConnection

    /// Locates the subscription `key` names, locks its row (`FOR UPDATE`) and reads its snapshot, all in one
    /// statement; nil when the database does not know it.
    func lockAndRead(_ key: SubscriptionKey) -> PipelinedStep<SubscriptionSnapshot?> {
        let (locator, parameters): (String, [any PostgresEncodable]) = switch key {
        case .id(let id): ("$1::uuid", [id])
        case .apple(let originalTransactionId):
            ("(SELECT subscription_id FROM apple_subscription_identity WHERE original_transaction_id = $1)", [originalTransactionId])
        case .google(let token, let linked):
            // The token itself, else the token it replaced: a linked token continues that subscription.
            ("""
             COALESCE((SELECT subscription_id FROM google_purchase_token WHERE purchase_token = $1),
                      (SELECT subscription_id FROM google_purchase_token WHERE purchase_token = $2))
             """, [token, linked])
        }
        return PipelinedStep(statement: PostgresStatement("""
            SELECT s.*, s.id::text AS subscription_id,
                   a.original_transaction_id AS apple_original_transaction_id, a.latest_transaction_id AS apple_latest_transaction_id,
                   a.app_account_token::text AS apple_app_account_token,
                   g.purchase_token AS google_purchase_token, g.linked_purchase_token AS google_linked_purchase_token,
                   pc.mode::text AS pc_mode, pc.state::text AS pc_state, pc.currency_code AS pc_currency_code,
                   pc.old_amount_micros AS pc_old_amount_micros, pc.new_amount_micros AS pc_new_amount_micros,
                   pc.expected_charge_at AS pc_expected_charge_at, pc.effective_at AS pc_effective_at,
                   pc.source_event_key AS pc_source_event_key,
                   EXISTS (SELECT 1 FROM subscription t WHERE t.billing_account_id = s.billing_account_id AND t.trial_ends_at IS NOT NULL)
                     AS account_has_had_trial
            FROM subscription s
            LEFT JOIN apple_subscription_identity a ON s.provider = 'APPLE' AND a.subscription_id = s.id
            LEFT JOIN LATERAL (SELECT purchase_token, linked_purchase_token FROM google_purchase_token
                               WHERE s.provider = 'GOOGLE' AND subscription_id = s.id AND is_current
                               ORDER BY updated_at DESC, created_at DESC LIMIT 1) g ON true
            LEFT JOIN LATERAL (SELECT * FROM subscription_price_change WHERE subscription_id = s.id AND state IN ('PENDING', 'ACCEPTED')
                               ORDER BY created_at DESC LIMIT 1) pc ON true
            WHERE s.id = \(locator)
            FOR UPDATE OF s
            """, parameters)) { result in try result.first.map(Self.snapshot) }
    }

    private static func snapshot(_ row: PostgresRow) throws -> SubscriptionSnapshot {
        let id = try row.decode(String.self, "subscription_id")
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
        if let original = try row.decodeIfPresent(String.self, "apple_original_transaction_id") {
            snapshot.apple = AppleSubscriptionIdentity(originalTransactionId: original,
                                                       latestTransactionId: try row.decodeIfPresent(String.self, "apple_latest_transaction_id"),
                                                       appAccountToken: try row.decodeIfPresent(String.self, "apple_app_account_token"))
        }
        if let token = try row.decodeIfPresent(String.self, "google_purchase_token") {
            snapshot.google = GoogleTokenIdentity(purchaseToken: token,
                                                  linkedPurchaseToken: try row.decodeIfPresent(String.self, "google_linked_purchase_token"))
        }
        snapshot.openPriceChange = try Self.openPriceChange(row, provider: provider)
        if accountId != nil { snapshot.accountHasHadTrial = try row.decode(Bool.self, "account_has_had_trial") }
        return snapshot
    }

    /// The entitlement row for an account and plan (nil when there is no row).
    func entitlement(accountId: String, planId: String) -> PipelinedStep<StoredEntitlement?> {
        PipelinedStep(statement: PostgresStatement("""
            SELECT is_active, valid_from, valid_until, source_subscription_id::text AS source FROM entitlement
            WHERE billing_account_id = $1::uuid AND plan_id = $2::uuid
            """, [accountId, planId])) { result in
            try result.first.map {
                StoredEntitlement(isActive: try $0.decode(Bool.self, "is_active"), validFrom: try $0.decodeIfPresent(Date.self, "valid_from"),
                                  validUntil: try $0.decodeIfPresent(Date.self, "valid_until"),
                                  sourceSubscriptionId: try $0.decodeIfPresent(String.self, "source"))
            }
        }
    }

    /// The state of the subscription's latest price-change row for the same new price (any state), or nil.
    func priceChangeState(subscriptionId: String, currencyCode: String, newAmountMicros: Int64) -> PipelinedStep<String?> {
        PipelinedStep(statement: PostgresStatement("""
            SELECT state::text AS state FROM subscription_price_change
            WHERE subscription_id = $1::uuid AND currency_code = $2 AND new_amount_micros = $3
            ORDER BY created_at DESC, id DESC LIMIT 1
            """, [subscriptionId, currencyCode, newAmountMicros])) { try $0.first?.decode(String.self, "state") }
    }

    /// Which of `keys` already exist in `billing_transaction`. Up to 16 keys go as an `IN ($1, …)` list, one prepared
    /// statement per count: its generic plan is costed for exactly that many keys, so the server plans it once, where
    /// `= ANY($1::text[])` is costed for ten and re-planned on every call.
    func existingTransactionKeys(_ keys: [String]) -> PipelinedStep<Set<String>> {
        let unique = Array(Set(keys)).sorted()
        let statement = switch unique.count {
        case 0: PostgresStatement("SELECT transaction_key FROM billing_transaction WHERE false")
        case 1...16:
            PostgresStatement("SELECT transaction_key FROM billing_transaction WHERE transaction_key IN ("
                              + (1...unique.count).map { "$\($0)" }.joined(separator: ", ") + ")", unique)
        default:
            PostgresStatement("SELECT transaction_key FROM billing_transaction WHERE transaction_key = ANY($1::text[])",
                              [PostgresTextArray(unique)])
        }
        return PipelinedStep(statement: statement) { result in
            Set(try result.rows.map { try $0.decode(String.self, "transaction_key") })
        }
    }

    private static func openPriceChange(_ row: PostgresRow, provider: BillingProvider) throws -> BillingCore.SubscriptionPriceChange? {
        guard try row.decodeIfPresent(String.self, "pc_mode") != nil else { return nil }
        return BillingCore.SubscriptionPriceChange(
            provider: provider, mode: try row.decode(PriceChangeMode.self, "pc_mode"), state: try row.decode(PriceChangeState.self, "pc_state"),
            currencyCode: try row.decode(String.self, "pc_currency_code"), oldAmountMicros: try row.decodeIfPresent(Int64.self, "pc_old_amount_micros"),
            newAmountMicros: try row.decode(Int64.self, "pc_new_amount_micros"),
            expectedChargeAt: try row.decodeIfPresent(Date.self, "pc_expected_charge_at"),
            effectiveAt: try row.decodeIfPresent(Date.self, "pc_effective_at"),
            sourceEventKey: try row.decodeIfPresent(String.self, "pc_source_event_key"))
    }
}

/// An `entitlement` row as stored.
struct StoredEntitlement {
    let isActive: Bool
    let validFrom: Date?
    let validUntil: Date?
    let sourceSubscriptionId: String?

    /// Whether the row already holds what `projected` would write from subscription `subscriptionId` (instants
    /// compared at the database's microsecond precision).
    func holds(_ projected: EntitlementProjection, from subscriptionId: String) -> Bool {
        func micros(_ date: Date?) -> Int64? { date.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) } }
        return isActive == projected.isActive && micros(validFrom) == micros(projected.validFrom)
            && micros(validUntil) == micros(projected.validUntil) && sourceSubscriptionId == subscriptionId
    }
}

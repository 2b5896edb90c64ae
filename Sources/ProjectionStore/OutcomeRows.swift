import BillingCore
import Foundation
import Postgres

/// The SQL that persists each part of a `ProjectionOutcome`; every statement is idempotent.
struct OutcomeRows {
    let database: PostgresConnection

    /// Inserts a new subscription row and returns its id.
    func insertSubscription(_ snapshot: SubscriptionSnapshot, now: Date) throws -> String {
        let row = try database.query("""
            INSERT INTO subscription (provider, billing_account_id, plan_id, status, created_at, updated_at)
            VALUES ($1::billing_provider, $2::uuid, $3::uuid, $4::subscription_status, $5, $5) RETURNING id::text AS id
            """, [snapshot.provider.rawValue, snapshot.billingAccountId, snapshot.planId, snapshot.status.rawValue, now]).first
        guard let id = try row?.decode(String.self, "id") else { throw PostgresError(.usage, message: "INSERT returned no id") }
        return id
    }

    /// Writes every column of the projected snapshot; `last_verified_at` is the trigger's instant. Queued: it is
    /// sent with COMMIT.
    func updateSubscription(id: String, _ snapshot: SubscriptionSnapshot, isSandbox: Bool, now: Date) throws {
        let parameters: [any PostgresEncodable] = [
            id, snapshot.billingAccountId, snapshot.planId, snapshot.productId, snapshot.status.rawValue,
            snapshot.acknowledgementStatus.rawValue, snapshot.isTestPurchase, snapshot.autoRenew,
            snapshot.currentPrice?.currencyCode, snapshot.currentPrice?.micros, snapshot.currentPeriodStartAt,
            snapshot.currentPeriodEndAt, snapshot.trialEndsAt, snapshot.cancelAt, snapshot.canceledAt,
            snapshot.lastVerifiedAt ?? now, snapshot.lastStoreStateAt, now, isSandbox,
        ]
        try database.enqueue(PostgresStatement("""
            UPDATE subscription SET billing_account_id = $2::uuid, plan_id = $3::uuid, product_id = $4,
              status = $5::subscription_status, acknowledgement_status = $6::acknowledgement_status,
              is_test_purchase = $7, auto_renew = $8, current_currency_code = $9, current_recurring_price_micros = $10,
              current_period_start_at = $11, current_period_end_at = $12, trial_ends_at = $13, cancel_at = $14,
              canceled_at = $15, last_verified_at = $16, last_store_state_at = $17, is_sandbox = $19,
              updated_at = CASE WHEN status IS DISTINCT FROM $5::subscription_status OR auto_renew IS DISTINCT FROM $8
                                  OR current_period_end_at IS DISTINCT FROM $12 THEN $18 ELSE updated_at END
            WHERE id = $1::uuid
            """, parameters))
    }

    /// Records the store identity: Apple's originalTransactionId, or Google's token chain. Each step fails with
    /// `identityOwnedByAnotherSubscription` when the identity belongs to another subscription (it is never moved).
    /// An identity that is already as projected is not rewritten (no new row version); it is only read, to prove
    /// its owner (the outer SELECT sees the table as it was before the statement). No step at all is needed when
    /// the locked snapshot `before` already holds the projected identity (it was located by it).
    func writeIdentity(subscriptionId: String, _ outcome: ProjectionOutcome, before: SubscriptionSnapshot?) -> [PipelinedStep<Void>] {
        var steps: [PipelinedStep<Void>] = []
        if let apple = outcome.subscription.apple, Self.changes(apple, before?.apple) {
            let token = apple.appAccountToken.flatMap { UUID(uuidString: $0) }
            steps.append(ownedIdentity(table: "apple_subscription_identity", key: "original_transaction_id", upsert: """
                  INSERT INTO apple_subscription_identity (subscription_id, original_transaction_id, latest_transaction_id, app_account_token)
                  VALUES ($1::uuid, $2, $3, $4::uuid)
                  ON CONFLICT (original_transaction_id) DO UPDATE
                    SET latest_transaction_id = COALESCE(EXCLUDED.latest_transaction_id, apple_subscription_identity.latest_transaction_id),
                        app_account_token = COALESCE(EXCLUDED.app_account_token, apple_subscription_identity.app_account_token),
                        updated_at = CASE WHEN apple_subscription_identity.latest_transaction_id IS DISTINCT FROM EXCLUDED.latest_transaction_id
                                          THEN now() ELSE apple_subscription_identity.updated_at END
                    WHERE apple_subscription_identity.subscription_id = EXCLUDED.subscription_id
                      AND (apple_subscription_identity.latest_transaction_id, apple_subscription_identity.app_account_token)
                          IS DISTINCT FROM (COALESCE(EXCLUDED.latest_transaction_id, apple_subscription_identity.latest_transaction_id),
                                            COALESCE(EXCLUDED.app_account_token, apple_subscription_identity.app_account_token))
                """, [subscriptionId, apple.originalTransactionId, apple.latestTransactionId, token],
                label: "apple:" + Masked.identifier(apple.originalTransactionId)))
        }
        // Superseded tokens first: at most one token of a subscription is current (a partial unique index), so the
        // old token must stop being current before the new one becomes it.
        let ordered = outcome.tokenChanges.filter { !$0.isCurrent } + outcome.tokenChanges.filter(\.isCurrent)
        for change in ordered where Self.changes(change, before?.google) {
            steps.append(ownedIdentity(table: "google_purchase_token", key: "purchase_token", upsert: """
                  INSERT INTO google_purchase_token (subscription_id, purchase_token, linked_purchase_token, is_current)
                  VALUES ($1::uuid, $2, $3, $4)
                  ON CONFLICT (purchase_token) DO UPDATE
                    SET is_current = EXCLUDED.is_current,
                        linked_purchase_token = COALESCE(EXCLUDED.linked_purchase_token, google_purchase_token.linked_purchase_token),
                        updated_at = CASE WHEN google_purchase_token.is_current IS DISTINCT FROM EXCLUDED.is_current
                                          THEN now() ELSE google_purchase_token.updated_at END
                    WHERE google_purchase_token.subscription_id = EXCLUDED.subscription_id
                      AND (google_purchase_token.is_current, google_purchase_token.linked_purchase_token)
                          IS DISTINCT FROM (EXCLUDED.is_current, COALESCE(EXCLUDED.linked_purchase_token, google_purchase_token.linked_purchase_token))
                """, [subscriptionId, change.purchaseToken, change.linkedPurchaseToken, change.isCurrent],
                label: "google:" + Masked.identifier(change.purchaseToken)))
        }
        return steps
    }

    /// An identity upsert (`$1` the subscription id, `$2` the identity in `table.key`) that proves the owner: the row it
    /// wrote, else the unchanged row of the same subscription; neither means another subscription owns it.
    private func ownedIdentity(table: String, key: String, upsert: String, _ parameters: [any PostgresEncodable],
                               label: String) -> PipelinedStep<Void> {
        PipelinedStep(statement: PostgresStatement("""
            WITH written AS (\(upsert)
              RETURNING subscription_id)
            SELECT subscription_id::text AS owner FROM written
            UNION ALL
            SELECT subscription_id::text FROM \(table) WHERE \(key) = $2 AND subscription_id = $1::uuid
            """, parameters)) { result in
            guard result.count > 0 else { throw ProjectionStoreError.identityOwnedByAnotherSubscription(label) }
        }
    }

    /// Whether writing `apple` would change the stored identity `stored` (absent fields leave stored values alone).
    static func changes(_ apple: AppleSubscriptionIdentity, _ stored: AppleSubscriptionIdentity?) -> Bool {
        guard let stored, stored.originalTransactionId == apple.originalTransactionId else { return true }
        let token = apple.appAccountToken.flatMap { UUID(uuidString: $0) }
        return (apple.latestTransactionId != nil && apple.latestTransactionId != stored.latestTransactionId)
            || (token != nil && token != stored.appAccountToken.flatMap { UUID(uuidString: $0) })
    }

    /// Whether writing `change` would change the stored current token `stored`; a replaced token's row is always written.
    static func changes(_ change: GoogleTokenChange, _ stored: GoogleTokenIdentity?) -> Bool {
        guard let stored, change.isCurrent, stored.purchaseToken == change.purchaseToken else { return true }
        return change.linkedPurchaseToken != nil && change.linkedPurchaseToken != stored.linkedPurchaseToken
    }

    /// Inserts history rows whose transactionKey is new; returns how many were inserted.
    ///
    /// A row that exists already keeps its amounts, currency, key and `recorded_at` (when we first learned it). Only
    /// its evidence may be attached later: when a re-query wrote the row first (no inbound event, payload `{}`, and
    /// `effective_at` the time of the query, because a re-query only sees that the event has happened by then) and the
    /// notification that announced the same event is projected afterwards (replayed or recovered), the row gains that
    /// event's id, payload and signed time. A refund first seen without Google's reason codes (RTDN) gains them from
    /// the voided-purchase list. An Apple row stored without its transaction's offer (written before migration 0015 and
    /// not backfilled) gains it when a notification of that transaction is projected again (replayed or recovered). The final
    /// rows then do not depend on which job saw the event first.
    ///
    /// `recorded_at` is left to the column's default, the database clock when the row is inserted (migration 0018):
    /// the instant we learned of the row, whichever job or path wrote it and whatever `--as-of` it ran with. The
    /// webhook's arrival is not knowledge of the row: a stored event that was projected after a month-end close is a
    /// prior-period adjustment, not a row the closed month knew.
    ///
    /// Queued: the rows are sent with COMMIT. `existing` (read under the subscription's lock, which every writer of its
    /// history holds) says which keys exist; a row that exists and carries no new evidence needs no statement.
    func insertTransactions(subscriptionId: String, _ records: [BillingTransactionRecord], existing: Set<String>,
                            trigger: ProjectionTrigger) throws -> Int {
        var inserted: Set<String> = []
        for record in records {
            let inboundEventId = record.inboundEventId ?? trigger.source.inboundEventId
            let reasons = record.refund?.googleVoidedReason != nil || record.refund?.googleVoidedSource != nil
            guard !existing.contains(record.transactionKey) || inboundEventId != nil || reasons else { continue }
            if !existing.contains(record.transactionKey) { inserted.insert(record.transactionKey) }
            let payload = record.rawPayload.isEmpty ? "{}" : String(decoding: record.rawPayload, as: UTF8.self)
            let charge = record.charge
            let refund = record.refund
            let values: [any PostgresEncodable] = [
                subscriptionId, record.provider.rawValue, record.eventType.rawValue, record.transactionKey, record.effectiveAt,
                record.expiresAt, record.orderId, record.amount?.micros, record.amount?.currencyCode, record.storefront,
                record.isTest, record.churnReason?.rawValue, inboundEventId, PostgresJSON(text: payload),
                charge?.productId, charge?.planId, charge?.billingPeriod, charge?.startAt, charge?.endAt,
                refund?.refundedTransactionKey, refund?.kind.rawValue, refund?.appleRevocationReason.map(Int64.init),
                refund?.appleRevocationType, refund?.googleVoidedSource.map(Int64.init), refund?.googleVoidedReason.map(Int64.init),
                record.isDerived, record.signupPromotionType?.rawValue, record.signupPromotionCode,
                record.offerType.flatMap { Int16(exactly: $0) }.map(Int32.init), record.offerDiscountType.flatMap { $0.isEmpty ? nil : $0 },
            ]
            try database.enqueue(PostgresStatement("""
                INSERT INTO billing_transaction AS b (subscription_id, provider, event_type, transaction_key, effective_at, expires_at,
                  order_id, amount_micros, currency_code, country_code, is_test, reason, inbound_event_id, raw_payload,
                  product_id, plan_id, billing_period, period_start_at, period_end_at, refunded_transaction_key, refund_kind,
                  revocation_reason, revocation_type, voided_source, voided_reason, is_derived,
                  signup_promotion_type, signup_promotion_code, offer_type, offer_discount_type)
                VALUES ($1::uuid, $2::billing_provider, $3::billing_event_type, $4, $5, $6, $7, $8, $9, $10, $11, $12,
                        (SELECT id FROM inbound_webhook_event WHERE id = $13::uuid), $14::jsonb,
                        $15, $16::uuid, $17, $18, $19, $20, $21::refund_kind, $22::int, $23, $24::int, $25::int,
                        $26, $27, $28, $29::int2, $30)
                ON CONFLICT (transaction_key) DO UPDATE
                  SET inbound_event_id = COALESCE(b.inbound_event_id, EXCLUDED.inbound_event_id),
                      raw_payload = CASE WHEN b.inbound_event_id IS NULL AND EXCLUDED.inbound_event_id IS NOT NULL
                                         THEN EXCLUDED.raw_payload ELSE b.raw_payload END,
                      effective_at = CASE WHEN b.inbound_event_id IS NULL AND EXCLUDED.inbound_event_id IS NOT NULL
                                          THEN EXCLUDED.effective_at ELSE b.effective_at END,
                      voided_source = COALESCE(b.voided_source, EXCLUDED.voided_source),
                      voided_reason = COALESCE(b.voided_reason, EXCLUDED.voided_reason),
                      offer_type = COALESCE(b.offer_type, EXCLUDED.offer_type),
                      offer_discount_type = COALESCE(b.offer_discount_type, EXCLUDED.offer_discount_type),
                      refund_kind = CASE WHEN COALESCE(b.voided_reason, EXCLUDED.voided_reason) = 7 THEN 'CHARGEBACK'::refund_kind
                                         ELSE b.refund_kind END
                  WHERE (b.inbound_event_id IS NULL AND EXCLUDED.inbound_event_id IS NOT NULL)
                     OR (b.voided_reason IS NULL AND EXCLUDED.voided_reason IS NOT NULL)
                     OR (b.voided_source IS NULL AND EXCLUDED.voided_source IS NOT NULL)
                     OR (b.offer_type IS NULL AND EXCLUDED.offer_type IS NOT NULL)
                     OR (b.offer_discount_type IS NULL AND EXCLUDED.offer_discount_type IS NOT NULL)
                """, values))
        }
        return inserted.count
    }

    /// Upserts the account's entitlement for the plan. An inactive projection from one subscription never
    /// switches off an entitlement that another subscription of the same account and plan granted. A row this
    /// subscription granted on another plan (before a plan change) is switched off: the subscription now entitles
    /// its current plan only. Queued: it is sent with COMMIT.
    func upsertEntitlement(subscriptionId: String, _ entitlement: EntitlementProjection) throws {
        guard let accountId = entitlement.billingAccountId else { return }
        try database.enqueue(PostgresStatement("""
            INSERT INTO entitlement (billing_account_id, plan_id, source_subscription_id, is_active, valid_from, valid_until)
            VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6)
            ON CONFLICT (billing_account_id, plan_id) DO UPDATE
              SET source_subscription_id = EXCLUDED.source_subscription_id, is_active = EXCLUDED.is_active,
                  valid_from = EXCLUDED.valid_from, valid_until = EXCLUDED.valid_until, updated_at = now()
              WHERE (entitlement.source_subscription_id IS NULL OR entitlement.source_subscription_id = EXCLUDED.source_subscription_id
                     OR EXCLUDED.is_active OR NOT entitlement.is_active)
                AND (entitlement.is_active, entitlement.valid_from, entitlement.valid_until, entitlement.source_subscription_id)
                    IS DISTINCT FROM (EXCLUDED.is_active, EXCLUDED.valid_from, EXCLUDED.valid_until, EXCLUDED.source_subscription_id)
            """, [accountId, entitlement.planId, subscriptionId, entitlement.isActive, entitlement.validFrom, entitlement.validUntil]))
        try database.enqueue(PostgresStatement("""
            UPDATE entitlement SET is_active = false, updated_at = now()
            WHERE source_subscription_id = $1::uuid AND plan_id <> $2::uuid AND is_active
            """, [subscriptionId, entitlement.planId]))
    }

    /// Keeps the subscription's entitlement as intervals: an entitled projection records (or extends) the interval of
    /// its period; any projection ends the subscription's open intervals that it no longer grants at `endedAt` (the
    /// store's instant of the change). `recorded_at` and `updated_at` are the database clock (when we learned it).
    /// Queued: it is sent with COMMIT.
    func recordEntitlementInterval(subscriptionId: String, _ entitlement: EntitlementProjection, endedAt: Date) throws {
        guard let accountId = entitlement.billingAccountId else { return }
        let granted = entitlement.isActive ? entitlement.validFrom : nil
        try database.enqueue(PostgresStatement("""
            UPDATE entitlement_interval SET ended_at = GREATEST(valid_from, LEAST($4::timestamptz, COALESCE(valid_until, $4::timestamptz))),
                   updated_at = clock_timestamp()
            WHERE subscription_id = $1::uuid AND ended_at IS NULL
              AND (plan_id <> $2::uuid OR $3::timestamptz IS NULL OR valid_from <> $3::timestamptz)
              AND (valid_until IS NULL OR valid_until > $4::timestamptz)
            """, [subscriptionId, entitlement.planId, granted, endedAt]))
        guard let from = granted else { return }
        try database.enqueue(PostgresStatement("""
            INSERT INTO entitlement_interval AS i (subscription_id, billing_account_id, plan_id, valid_from, valid_until, updated_at)
            VALUES ($1::uuid, $2::uuid, $3::uuid, $4, GREATEST($5::timestamptz, $4::timestamptz), clock_timestamp())
            ON CONFLICT (subscription_id, plan_id, valid_from) DO UPDATE
              SET valid_until = EXCLUDED.valid_until, ended_at = NULL, updated_at = EXCLUDED.updated_at
              WHERE i.valid_until IS DISTINCT FROM EXCLUDED.valid_until OR i.ended_at IS NOT NULL
            """, [subscriptionId, accountId, entitlement.planId, from, entitlement.validUntil]))
    }

    /// Updates the open (PENDING or ACCEPTED) price change, or inserts one; an identical closed row is not repeated.
    func upsertPriceChange(subscriptionId: String, _ change: BillingCore.SubscriptionPriceChange, now: Date) throws {
        try writePriceChange(subscriptionId: subscriptionId, change)
        // Every state the change reached, with the store's instant, once (the row keeps only its last state). Seen
        // again, a state keeps the earliest instant any path named for it (`recorded_at` stays the first sighting).
        try database.execute("""
            WITH target AS (
                SELECT id FROM subscription_price_change WHERE subscription_id = $1::uuid AND currency_code = $2 AND new_amount_micros = $3
                ORDER BY created_at DESC, id DESC LIMIT 1)
            UPDATE subscription_price_change c SET product_id = COALESCE(c.product_id, $5), region_code = COALESCE(c.region_code, $6),
                   announced_at = COALESCE(c.announced_at, $4::timestamptz)
            FROM target WHERE c.id = target.id
              AND (c.product_id IS NULL AND $5::text IS NOT NULL OR c.region_code IS NULL AND $6::text IS NOT NULL OR c.announced_at IS NULL)
            """, [subscriptionId, change.currencyCode, change.newAmountMicros, change.stateAt ?? now, change.productId, change.regionCode])
        try database.execute("""
            INSERT INTO subscription_price_change_transition (price_change_id, state, at)
            SELECT id, $4::price_change_state, $5 FROM subscription_price_change
            WHERE subscription_id = $1::uuid AND currency_code = $2 AND new_amount_micros = $3
            ORDER BY created_at DESC, id DESC LIMIT 1
            ON CONFLICT (price_change_id, state) DO UPDATE SET at = EXCLUDED.at
              WHERE EXCLUDED.at < subscription_price_change_transition.at
            """, [subscriptionId, change.currencyCode, change.newAmountMicros, change.state.rawValue, change.stateAt ?? now])
    }

    private func writePriceChange(subscriptionId: String, _ change: BillingCore.SubscriptionPriceChange) throws {
        let values: [any PostgresEncodable] = [
            subscriptionId, change.provider.rawValue, change.mode.rawValue, change.state.rawValue, change.currencyCode,
            change.oldAmountMicros, change.newAmountMicros, change.expectedChargeAt, change.effectiveAt, change.sourceEventKey,
        ]
        let updated = try database.execute("""
            UPDATE subscription_price_change SET provider = $2::billing_provider, mode = $3::price_change_mode,
              state = $4::price_change_state, currency_code = $5, old_amount_micros = $6, new_amount_micros = $7,
              expected_charge_at = $8, effective_at = $9, source_event_key = $10, updated_at = now()
            WHERE id = (SELECT id FROM subscription_price_change WHERE subscription_id = $1::uuid AND state IN ('PENDING', 'ACCEPTED')
                        ORDER BY created_at DESC LIMIT 1)
              AND (provider, mode, state, currency_code, old_amount_micros, new_amount_micros, expected_charge_at, effective_at, source_event_key)
                  IS DISTINCT FROM ($2::billing_provider, $3::price_change_mode, $4::price_change_state, $5, $6::bigint, $7::bigint,
                                    $8::timestamptz, $9::timestamptz, $10)
            """, values)
        guard updated == 0 else { return }
        // An open row that already holds exactly this state needs no write (and keeps its updated_at).
        let unchanged = try database.query("""
            SELECT 1 FROM subscription_price_change WHERE subscription_id = $1::uuid AND state IN ('PENDING', 'ACCEPTED')
              AND state = $2::price_change_state AND currency_code = $3 AND new_amount_micros = $4
            """, [subscriptionId, change.state.rawValue, change.currencyCode, change.newAmountMicros]).count
        guard unchanged == 0 else { return }
        try database.execute("""
            INSERT INTO subscription_price_change (subscription_id, provider, mode, state, currency_code, old_amount_micros,
              new_amount_micros, expected_charge_at, effective_at, source_event_key)
            SELECT $1::uuid, $2::billing_provider, $3::price_change_mode, $4::price_change_state, $5, $6, $7, $8, $9, $10
            WHERE NOT EXISTS (SELECT 1 FROM subscription_price_change WHERE subscription_id = $1::uuid AND state = $4::price_change_state
                                AND currency_code = $5 AND new_amount_micros = $7 AND source_event_key IS NOT DISTINCT FROM $10)
            """, values)
    }

    /// Records drift findings for a re-query. Queued: they are sent with COMMIT.
    func recordDrift(subscriptionId: String, _ findings: [DriftFinding], jobRunID: Int64?, at: Date) throws {
        for finding in findings {
            try database.enqueue(PostgresStatement("""
                INSERT INTO drift_event (job_run_id, subscription_id, kind, field, database_value, store_value, detected_at, repaired)
                VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, true)
                """, [jobRunID, subscriptionId, finding.kind.rawValue, finding.field, finding.databaseValue, finding.storeValue, at]))
        }
    }
}

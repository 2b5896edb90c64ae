import BillingCore
import Foundation
import Postgres

/// Loads a world's rows with COPY (one COPY per table per batch), in foreign-key order.
struct DatabaseLoader {
    let database: PostgresConnection

    func loadCatalogue(_ catalogue: WorldCatalogue, ids: WorldIdentifiers, atMs: Int64) throws {
        let at = WorldClock.sqlTimestamp(atMs)
        try database.copyIn("COPY plan (id, code, name, interval_unit, billing_period, is_active, created_at, updated_at) FROM STDIN") { copy in
            for plan in catalogue.plans {
                try copy.writeRow([plan.id, plan.code, plan.name, plan.intervalUnit, plan.billingPeriod, "t", at, at])
            }
        }
        try database.copyIn("""
            COPY store_product_mapping (id, provider, plan_id, product_id, base_plan_id, offer_id, display_currency_code,
              display_price_micros, display_price_updated_at, external_key, created_at) FROM STDIN
            """) { copy in
            var position = 0
            for plan in catalogue.plans {
                let usd = catalogue.markets[0].prices[plan.code].map(String.init)
                var rows: [(String, String, String, String)] = [("APPLE", plan.appleProductId, "", ""),
                                                                 ("GOOGLE", plan.googleProductId, plan.googleBasePlanId, "")]
                if let offer = plan.googleTrialOfferId { rows.append(("GOOGLE", plan.googleProductId, plan.googleBasePlanId, offer)) }
                for (provider, product, basePlan, offer) in rows {
                    try copy.writeRow([ids.uuid(.mapping, position), provider, plan.id, product, basePlan, offer, "USD", usd, at,
                                       [provider, product, basePlan, offer].joined(separator: ":"), at])
                    position += 1
                }
            }
        }
    }

    /// Loads the world's monthly exchange rates into `fx_rate` (USD per unit, source `worldgen`).
    func loadRates(_ fx: WorldFXRates) throws {
        try database.copyIn("COPY fx_rate (month, from_currency, to_currency, rate, source) FROM STDIN") { copy in
            for (position, month) in fx.months.enumerated() {
                for currency in fx.rates.keys.sorted() {
                    let rate = fx.rates[currency]?[position] ?? WorldFXRates.scale
                    try copy.writeRow([month.firstDay, currency, WorldFXRates.quote, WorldFXRates.decimal(rate), "worldgen"])
                }
            }
        }
    }

    /// Loads the rows of `subscriptions`, leaving out the billing_transaction rows whose keys are in `missing`.
    func load(_ subscriptions: [WorldSubscription], missing: Set<String> = []) throws {
        try database.copyIn("COPY app_user (id, email, created_at, updated_at) FROM STDIN") { copy in
            for s in subscriptions {
                let at = WorldClock.sqlTimestamp(s.createdMs)
                try copy.writeRow([s.userId, "user\(s.index)@example.test", at, at])
            }
        }
        try database.copyIn("COPY billing_account (id, user_id, account_token, created_at, updated_at) FROM STDIN") { copy in
            for s in subscriptions {
                let at = WorldClock.sqlTimestamp(s.createdMs)
                try copy.writeRow([s.accountId, s.userId, s.accountToken, at, at])
            }
        }
        try database.copyIn("""
            COPY subscription (id, provider, billing_account_id, plan_id, status, acknowledgement_status, is_test_purchase, is_sandbox,
              auto_renew, current_currency_code, current_recurring_price_micros, current_period_start_at, current_period_end_at,
              trial_ends_at, cancel_at, canceled_at, last_verified_at, last_store_state_at, created_at, updated_at, product_id) FROM STDIN
            """) { copy in
            for s in subscriptions { if let row = subscriptionRow(s.rows) { try copy.writeRow(row) } }
        }
        try database.copyIn("""
            COPY apple_subscription_identity (id, subscription_id, original_transaction_id, latest_transaction_id, app_account_token,
              created_at, updated_at) FROM STDIN
            """) { copy in
            for s in subscriptions {
                guard let apple = s.rows.snapshot?.apple else { continue }
                try copy.writeRow([WorldIdentifiers.derived(s.rows.subscriptionId, "a"), s.rows.subscriptionId, apple.originalTransactionId,
                                   s.rows.appleLatest, apple.appAccountToken, ts(s.rows.appleCreatedMs), ts(s.rows.appleUpdatedMs)])
            }
        }
        try database.copyIn("""
            COPY google_purchase_token (id, subscription_id, purchase_token, linked_purchase_token, is_current, created_at, updated_at) FROM STDIN
            """) { copy in
            for s in subscriptions where s.rows.snapshot != nil {
                for (position, token) in s.rows.tokens.enumerated() {
                    try copy.writeRow([WorldIdentifiers.derived(s.rows.subscriptionId, "g\(position)"), s.rows.subscriptionId, token.token,
                                       token.linked, token.isCurrent ? "t" : "f", ts(token.createdMs), ts(token.updatedMs)])
                }
            }
        }
        try database.copyIn("""
            COPY inbound_webhook_event (id, provider, provider_event_id, provider_business_key, environment, verified, payload,
              received_at, processed_at, processing_error, processing_attempts) FROM STDIN
            """) { copy in
            for s in subscriptions {
                for row in s.rows.inbound {
                    try copy.writeRow([row.id, row.provider, row.providerEventId, row.businessKey, row.environment, "t",
                                       JSONText.serialize(row.payload), ts(row.receivedAtMs), row.processedAtMs.map(ts),
                                       row.processingError, "1"])
                }
            }
        }
        // The offer columns exist from migration 0015 on; a test that loads a world into an older schema leaves them out.
        let offers = try hasColumn("billing_transaction", "offer_type")
        try database.copyIn("""
            COPY billing_transaction (id, subscription_id, provider, event_type, transaction_key, effective_at, expires_at, order_id,
              amount_micros, currency_code, country_code, is_test, reason, inbound_event_id, raw_payload, created_at,
              product_id, plan_id, billing_period, period_start_at, period_end_at, refunded_transaction_key, refund_kind,
              revocation_reason, revocation_type, voided_source, voided_reason, recorded_at, is_derived\(offers ? ", offer_type, offer_discount_type" : "")) FROM STDIN
            """) { copy in
            for s in subscriptions where s.rows.snapshot != nil {
                for row in s.rows.transactions where missing.isEmpty || !missing.contains(row.record.transactionKey) {
                    let r = row.record
                    let payload = r.rawPayload.isEmpty ? "{}" : String(decoding: r.rawPayload, as: UTF8.self)
                    try copy.writeRow([row.id, s.rows.subscriptionId, r.provider.rawValue, r.eventType.rawValue, r.transactionKey,
                                       date(r.effectiveAt), r.expiresAt.map(date), r.orderId, r.amount.map { String($0.micros) },
                                       r.amount?.currencyCode, r.storefront, r.isTest ? "t" : "f", r.churnReason?.rawValue,
                                       r.inboundEventId, payload, ts(row.createdMs)] + historyColumns(r, recordedMs: row.createdMs)
                                      + (offers ? [r.offerType.map(String.init), r.offerDiscountType] : []))
                }
            }
        }
        try database.copyIn("""
            COPY subscription_price_change (id, subscription_id, provider, mode, state, currency_code, old_amount_micros,
              new_amount_micros, expected_charge_at, effective_at, source_event_key, created_at, updated_at,
              product_id, region_code, announced_at) FROM STDIN
            """) { copy in
            for s in subscriptions where s.rows.snapshot != nil {
                for row in s.rows.priceChanges {
                    let c = row.change
                    try copy.writeRow([row.id, s.rows.subscriptionId, c.provider.rawValue, c.mode.rawValue, c.state.rawValue, c.currencyCode,
                                       c.oldAmountMicros.map(String.init), String(c.newAmountMicros), c.expectedChargeAt.map(date),
                                       c.effectiveAt.map(date), c.sourceEventKey, ts(row.createdMs), ts(row.updatedMs),
                                       c.productId, c.regionCode, ts(row.createdMs)])
                }
            }
        }
        try database.copyIn("COPY subscription_price_change_transition (price_change_id, state, at, recorded_at) FROM STDIN") { copy in
            for s in subscriptions where s.rows.snapshot != nil {
                for row in s.rows.priceChanges {
                    for transition in row.transitions {
                        try copy.writeRow([row.id, transition.state.rawValue, ts(transition.atMs), ts(transition.recordedMs)])
                    }
                }
            }
        }
        try database.copyIn("""
            COPY entitlement (id, billing_account_id, plan_id, source_subscription_id, is_active, valid_from, valid_until, created_at,
              updated_at) FROM STDIN
            """) { copy in
            for s in subscriptions where s.rows.snapshot != nil {
                for plan in s.rows.entitlementOrder {
                    guard let row = s.rows.entitlements[plan], let account = row.value.billingAccountId else { continue }
                    try copy.writeRow([WorldIdentifiers.derived(s.rows.subscriptionId, "e" + plan), account, plan, s.rows.subscriptionId,
                                       row.value.isActive ? "t" : "f", row.value.validFrom.map(date), row.value.validUntil.map(date),
                                       ts(row.createdMs), ts(row.updatedMs)])
                }
            }
        }
    }

    func subscriptionRow(_ rows: LedgerRows) -> [String?]? {
        guard let s = rows.snapshot else { return nil }
        return [rows.subscriptionId, s.provider.rawValue, s.billingAccountId, s.planId, s.status.rawValue, s.acknowledgementStatus.rawValue,
                s.isTestPurchase ? "t" : "f", s.isTestPurchase ? "t" : "f", s.autoRenew ? "t" : "f", s.currentPrice?.currencyCode,
                s.currentPrice.map { String($0.micros) }, s.currentPeriodStartAt.map(date), s.currentPeriodEndAt.map(date),
                s.trialEndsAt.map(date), s.cancelAt.map(date), s.canceledAt.map(date), s.lastVerifiedAt.map(date),
                s.lastStoreStateAt.map(date), ts(rows.createdMs), ts(rows.updatedMs), s.productId]
    }

    /// The history columns of a row: what a charge bought, the refund's details, when it was learned (the world
    /// instant the row was written: the webhook's arrival) and whether it was derived.
    private func historyColumns(_ r: BillingTransactionRecord, recordedMs: Int64) -> [String?] {
        let refund = r.refund
        return [r.charge?.productId, r.charge?.planId, r.charge?.billingPeriod, r.charge?.startAt.map(date), r.charge?.endAt.map(date),
                refund?.refundedTransactionKey, refund?.kind.rawValue, refund?.appleRevocationReason.map(String.init),
                refund?.appleRevocationType, refund?.googleVoidedSource.map(String.init), refund?.googleVoidedReason.map(String.init),
                ts(recordedMs), r.isDerived ? "t" : "f"]
    }

    /// Whether the public table `table` has the column `column`.
    private func hasColumn(_ table: String, _ column: String) throws -> Bool {
        try database.query("""
            SELECT 1 FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND column_name = $2
            """, [table, column]).count > 0
    }

    private func ts(_ ms: Int64) -> String { WorldClock.sqlTimestamp(ms) }
    private func date(_ value: Date) -> String { WorldClock.sqlTimestamp(WorldClock.ms(value)) }
}

-- A schema finance can trust: money rows never disappear with a user, every amount has its currency, every
-- foreign key a job filters on is indexed, and a Google subscription has at most one current purchase token.
-- Decisions are listed in SQL/README.md.

SET LOCAL TimeZone = 'UTC';

-- 1. Deleting a user, billing account or subscription never cascades into money rows. The chain
-- app_user → billing_account → subscription → billing_transaction / subscription_price_change was CASCADE:
-- one DELETE FROM app_user erased a customer's charges and refunds. Every link into a money row is now RESTRICT;
-- erase_app_user() below anonymises instead.
ALTER TABLE billing_account DROP CONSTRAINT billing_account_user_id_fkey,
    ADD CONSTRAINT billing_account_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_user (id) ON DELETE RESTRICT;
ALTER TABLE subscription DROP CONSTRAINT subscription_billing_account_id_fkey,
    ADD CONSTRAINT subscription_billing_account_id_fkey FOREIGN KEY (billing_account_id)
        REFERENCES billing_account (id) ON DELETE RESTRICT;
ALTER TABLE billing_transaction DROP CONSTRAINT billing_transaction_subscription_id_fkey,
    ADD CONSTRAINT billing_transaction_subscription_id_fkey FOREIGN KEY (subscription_id)
        REFERENCES subscription (id) ON DELETE RESTRICT;
ALTER TABLE subscription_price_change DROP CONSTRAINT subscription_price_change_subscription_id_fkey,
    ADD CONSTRAINT subscription_price_change_subscription_id_fkey FOREIGN KEY (subscription_id)
        REFERENCES subscription (id) ON DELETE RESTRICT;

-- The erasure path: a user's personal data goes, the money rows stay. The email is cleared; the account token the
-- app passed to the stores is replaced by a random one (the stores' appAccountToken / obfuscated account id no
-- longer leads to this account); the Apple identity's appAccountToken is cleared; the stored store payloads of the
-- user's history rows and of the webhooks they came from are replaced by a marker (they repeat the account token).
-- Amounts, currencies, dates, countries, transaction keys and order ids stay for finance and tax. Returns the rows
-- changed; an unknown user changes nothing; the erasure is written to audit_log. Idempotent.
CREATE FUNCTION erase_app_user(target uuid, actor text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    changed bigint := 0;
    n bigint;
    marker jsonb := jsonb_build_object('erased', true);
BEGIN
    UPDATE app_user SET email = NULL, updated_at = now() WHERE id = target AND email IS NOT NULL;
    GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
    UPDATE billing_account SET account_token = gen_random_uuid(), updated_at = now() WHERE user_id = target;
    GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
    UPDATE apple_subscription_identity i SET app_account_token = NULL, updated_at = now()
    FROM subscription s JOIN billing_account a ON a.id = s.billing_account_id
    WHERE i.subscription_id = s.id AND a.user_id = target AND i.app_account_token IS NOT NULL;
    GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
    UPDATE inbound_webhook_event e SET payload = marker
    FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id JOIN billing_account a ON a.id = s.billing_account_id
    WHERE e.id = b.inbound_event_id AND a.user_id = target AND e.payload <> marker;
    GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
    UPDATE billing_transaction b SET raw_payload = marker
    FROM subscription s JOIN billing_account a ON a.id = s.billing_account_id
    WHERE b.subscription_id = s.id AND a.user_id = target AND b.raw_payload <> marker;
    GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
    IF EXISTS (SELECT 1 FROM app_user WHERE id = target) THEN
        INSERT INTO audit_log (actor, action, entity, entity_id, detail)
        VALUES (actor, 'erase', 'app_user', target::text, jsonb_build_object('rows_changed', changed));
    END IF;
    RETURN changed;
END $$;

-- 2. Money columns and their currency as pairs (amount present ⇔ currency present), every currency ^[A-Z]{3}$.
-- subscription (current price) and billing_transaction (amount) had the pair already; price changes and fx_rate
-- are NOT NULL on both sides.
ALTER TABLE store_product_mapping ADD CONSTRAINT store_product_mapping_display_price_pair
    CHECK ((display_price_micros IS NULL) = (display_currency_code IS NULL));
ALTER TABLE billing_transaction ADD CONSTRAINT billing_transaction_proceeds_pair
    CHECK ((proceeds_micros IS NULL) = (proceeds_currency_code IS NULL));
ALTER TABLE apple_financial_row
    ADD CONSTRAINT apple_financial_row_partner_share_currency_shape CHECK (partner_share_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT apple_financial_row_customer_currency_shape CHECK (customer_currency ~ '^[A-Z]{3}$');
-- A payments row's proceeds are in the bank account's currency; a region may name the bank currency without
-- proceeds (nothing was paid), never proceeds without it.
ALTER TABLE apple_payments_row
    ADD CONSTRAINT apple_payments_row_currency_shape CHECK (currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT apple_payments_row_bank_account_currency_shape CHECK (bank_account_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT apple_payments_row_proceeds_currency CHECK (proceeds_micros IS NULL OR bank_account_currency IS NOT NULL);
ALTER TABLE apple_subscriber_row
    ADD CONSTRAINT apple_subscriber_row_customer_currency_shape CHECK (customer_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT apple_subscriber_row_proceeds_currency_shape CHECK (proceeds_currency ~ '^[A-Z]{3}$');
ALTER TABLE apple_sales_summary_row
    ADD CONSTRAINT apple_sales_summary_row_customer_currency_shape CHECK (customer_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT apple_sales_summary_row_currency_of_proceeds_shape CHECK (currency_of_proceeds ~ '^[A-Z]{3}$');
ALTER TABLE google_earnings_row
    ADD CONSTRAINT google_earnings_row_buyer_currency_shape CHECK (buyer_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT google_earnings_row_merchant_currency_shape CHECK (merchant_currency ~ '^[A-Z]{3}$');
ALTER TABLE google_estimated_sales_row
    ADD CONSTRAINT google_estimated_sales_row_currency_of_sale_shape CHECK (currency_of_sale ~ '^[A-Z]{3}$');

-- 3. The refund sign is a CHECK since 0009 (billing_transaction_refund_sign, billing_transaction_charge_sign).

-- 4. An index for every foreign key (leading columns), so a job's filter on it and the RESTRICT / SET NULL check on
-- a parent's delete never scan the child table.
CREATE INDEX subscription_plan_idx ON subscription (plan_id);
CREATE INDEX billing_transaction_plan_idx ON billing_transaction (plan_id) WHERE plan_id IS NOT NULL;
CREATE INDEX entitlement_source_subscription_idx ON entitlement (source_subscription_id) WHERE source_subscription_id IS NOT NULL;
CREATE INDEX entitlement_plan_idx ON entitlement (plan_id);
CREATE INDEX entitlement_interval_plan_idx ON entitlement_interval (plan_id);
CREATE INDEX store_product_mapping_plan_idx ON store_product_mapping (plan_id);
CREATE INDEX drift_event_job_run_idx ON drift_event (job_run_id) WHERE job_run_id IS NOT NULL;
CREATE INDEX requery_work_item_subscription_idx ON requery_work_item (subscription_id);
CREATE INDEX report_file_replaced_by_idx ON report_file (replaced_by) WHERE replaced_by IS NOT NULL;

-- 5. At most one current Google purchase token per subscription. Where stored data has several, the one no other
-- token of the subscription links back to (the newest of a linkedPurchaseToken chain) stays current, then the most
-- recently created; the others are marked superseded and audit_log names them.
WITH ranked AS (
    SELECT t.id, t.subscription_id,
           row_number() OVER (PARTITION BY t.subscription_id
                              ORDER BY EXISTS (SELECT 1 FROM google_purchase_token n
                                               WHERE n.subscription_id = t.subscription_id
                                                 AND n.linked_purchase_token = t.purchase_token),
                                       t.created_at DESC, t.id) AS rank
    FROM google_purchase_token t
    WHERE t.is_current
), demoted AS (
    UPDATE google_purchase_token t SET is_current = false, updated_at = now()
    FROM ranked r WHERE r.id = t.id AND r.rank > 1
    RETURNING t.id, t.subscription_id
)
INSERT INTO audit_log (actor, action, entity, entity_id, detail)
SELECT 'migration 0012', 'demote_token', 'google_purchase_token', d.id::text,
       jsonb_build_object('subscription_id', d.subscription_id, 'reason', 'a second current token of the subscription')
FROM demoted d;
CREATE UNIQUE INDEX google_purchase_token_one_current_idx ON google_purchase_token (subscription_id) WHERE is_current;

-- A history finance can trust: what each charge bought, complete refunds with the store's reason,
-- when a row happened (effective_at) vs when we learned it (recorded_at), derived expiries,
-- entitlement intervals and price-change transitions. Decisions are listed in SQL/README.md.

SET LOCAL TimeZone = 'UTC';

CREATE TYPE refund_kind AS ENUM ('REFUND', 'CHARGEBACK', 'FAMILY_REVOKE');

-- 1. What a charge bought: store product, plan and the paid period (ISO billing period of the plan).
ALTER TABLE billing_transaction
    ADD COLUMN product_id       text,
    ADD COLUMN plan_id          uuid REFERENCES plan (id) ON DELETE RESTRICT,
    ADD COLUMN billing_period   text CHECK (billing_period ~ '^P[1-9][0-9]*[DWMY]$'),
    ADD COLUMN period_start_at  timestamptz,
    ADD COLUMN period_end_at    timestamptz,
    -- 3. Refunds: the charge refunded and the store's reason codes, as the store sent them.
    ADD COLUMN refunded_transaction_key  text,
    ADD COLUMN refund_kind               refund_kind,
    ADD COLUMN revocation_reason         integer,
    ADD COLUMN revocation_type           text,
    ADD COLUMN voided_source             integer,
    ADD COLUMN voided_reason             integer,
    -- 4. When we learned of the row (effective_at stays the store's instant).
    ADD COLUMN recorded_at      timestamptz NOT NULL DEFAULT now(),
    -- 5. Inferred by the pipeline (e.g. EXPIRED for a paid period that ended without renewal).
    ADD COLUMN is_derived       boolean NOT NULL DEFAULT false;

-- recorded_at of existing rows: the webhook's arrival when the row came from one, else when the row was written.
UPDATE billing_transaction b SET recorded_at = COALESCE(
    (SELECT e.received_at FROM inbound_webhook_event e WHERE e.id = b.inbound_event_id), b.created_at);

-- Backfill: what the existing charge rows bought. The paid period ends at expires_at; it starts at the purchase
-- instant (Apple purchaseDate is the row's effective_at; a Google first order its signup), and a Google renewal
-- starts where the previous order of the same order chain expired (else expiry minus the plan's period). The plan is
-- the mapped plan of the provider whose ISO period spans start → end (the subscription's current plan preferred),
-- since subscriptions that changed plan kept only their current plan before this migration.
WITH charge AS (
    SELECT b.id, b.subscription_id, b.provider, b.event_type, b.effective_at, b.expires_at,
           lag(b.expires_at) OVER (PARTITION BY b.subscription_id, split_part(b.order_id, '..', 1)
                                   ORDER BY b.expires_at, b.effective_at) AS previous_expiry
    FROM billing_transaction b
    WHERE b.amount_micros IS NOT NULL
      AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
), dated AS (
    SELECT c.id, c.subscription_id, c.provider, c.expires_at,
           CASE WHEN c.provider = 'APPLE' OR c.event_type = 'PURCHASED' OR c.expires_at IS NULL THEN c.effective_at
                WHEN c.previous_expiry IS NOT NULL AND c.previous_expiry < c.expires_at THEN c.previous_expiry
                ELSE NULL END AS start_at
    FROM charge c
), planned AS (
    SELECT d.id, d.expires_at, s.product_id AS current_product, s.plan_id AS current_plan, cp.billing_period AS current_period,
           COALESCE(d.start_at, GREATEST(d.expires_at - cp.billing_period::interval,
                    (SELECT min(p.effective_at) FROM billing_transaction p
                     WHERE p.subscription_id = d.subscription_id AND p.event_type = 'PURCHASED'))) AS start_at,
           d.provider
    FROM dated d JOIN subscription s ON s.id = d.subscription_id JOIN plan cp ON cp.id = s.plan_id
), matched AS (
    SELECT pl.id, pl.start_at, pl.expires_at,
           COALESCE(m.plan_id, pl.current_plan) AS plan_id,
           CASE WHEN m.plan_id IS NULL OR m.plan_id = pl.current_plan THEN pl.current_product ELSE m.product_id END AS product_id,
           COALESCE(m.billing_period, pl.current_period) AS billing_period
    FROM planned pl
    LEFT JOIN LATERAL (
        SELECT mp.plan_id, mp.product_id, p.billing_period
        FROM store_product_mapping mp JOIN plan p ON p.id = mp.plan_id
        WHERE mp.provider = pl.provider AND pl.expires_at IS NOT NULL AND pl.start_at IS NOT NULL
          AND abs(extract(epoch FROM (pl.start_at + p.billing_period::interval) - pl.expires_at)) < 129600
        ORDER BY (mp.plan_id = pl.current_plan) DESC, (mp.offer_id = '') DESC, mp.product_id LIMIT 1) m ON true
)
UPDATE billing_transaction b
SET plan_id = m.plan_id, product_id = m.product_id, billing_period = m.billing_period,
    period_start_at = LEAST(m.start_at, COALESCE(m.expires_at, m.start_at)), period_end_at = m.expires_at
FROM matched m
WHERE b.id = m.id;

-- Backfill: Google renewal rows were dated "expiry minus one interval_unit" (weeks dated as months):
-- redate them to the paid period's start.
UPDATE billing_transaction b SET effective_at = b.period_start_at
WHERE b.provider = 'GOOGLE' AND b.event_type IN ('RENEWED', 'RECOVERED') AND b.period_start_at IS NOT NULL
  AND b.effective_at IS DISTINCT FROM b.period_start_at;

-- Backfill: refunds. The refunded charge is the key without the event suffix (Apple) or the voided order (Google).
UPDATE billing_transaction r
SET refunded_transaction_key = c.transaction_key
FROM billing_transaction c
WHERE r.event_type = 'REFUNDED' AND r.refunded_transaction_key IS NULL AND c.subscription_id = r.subscription_id
  AND c.event_type <> 'REFUNDED'
  AND c.transaction_key = regexp_replace(r.transaction_key, ':REFUNDED$', '');
UPDATE billing_transaction r SET refunded_transaction_key = regexp_replace(r.transaction_key, ':REFUNDED$', '')
WHERE r.event_type = 'REFUNDED' AND r.refunded_transaction_key IS NULL;
UPDATE billing_transaction r
SET revocation_reason = CASE WHEN r.raw_payload #>> '{transaction,revocationReason}' ~ '^[0-9]+$'
                             THEN (r.raw_payload #>> '{transaction,revocationReason}')::integer END,
    revocation_type = r.raw_payload #>> '{transaction,revocationType}',
    voided_source = CASE WHEN r.raw_payload #>> '{voidedPurchase,voidedSource}' ~ '^[0-9]+$'
                         THEN (r.raw_payload #>> '{voidedPurchase,voidedSource}')::integer END,
    voided_reason = CASE WHEN r.raw_payload #>> '{voidedPurchase,voidedReason}' ~ '^[0-9]+$'
                         THEN (r.raw_payload #>> '{voidedPurchase,voidedReason}')::integer END
WHERE r.event_type IN ('REFUNDED', 'REVOKED');
UPDATE billing_transaction SET refund_kind = CASE
        WHEN voided_reason = 7 THEN 'CHARGEBACK'::refund_kind
        WHEN revocation_type = 'FAMILY_REVOKE' THEN 'FAMILY_REVOKE'::refund_kind
        ELSE 'REFUND'::refund_kind END
WHERE event_type = 'REFUNDED';
UPDATE billing_transaction SET refund_kind = 'FAMILY_REVOKE', refunded_transaction_key = regexp_replace(transaction_key, ':REVOKED$', '')
WHERE event_type = 'REVOKED' AND provider = 'APPLE';
-- Sign rule: refunds were stored positive (Apple) or without an amount (Google: the refunded charge's amount).
UPDATE billing_transaction SET amount_micros = -amount_micros
WHERE event_type = 'REFUNDED' AND amount_micros > 0;
UPDATE billing_transaction r SET amount_micros = -c.amount_micros, currency_code = c.currency_code
FROM billing_transaction c
WHERE r.event_type = 'REFUNDED' AND r.amount_micros IS NULL AND r.refund_kind <> 'FAMILY_REVOKE'
  AND c.transaction_key = r.refunded_transaction_key AND c.amount_micros IS NOT NULL;

-- Sign rule: charges carry amount >= 0 (a free trial is 0); refunds and chargebacks < 0; a family revocation no money.
ALTER TABLE billing_transaction
    ADD CONSTRAINT billing_transaction_charge_sign CHECK (
        event_type NOT IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED') OR amount_micros IS NULL OR amount_micros >= 0),
    ADD CONSTRAINT billing_transaction_refund_sign CHECK (
        event_type <> 'REFUNDED' OR amount_micros IS NULL OR amount_micros < 0
        OR (amount_micros = 0 AND refund_kind = 'FAMILY_REVOKE')),
    ADD CONSTRAINT billing_transaction_refund_kind CHECK (event_type <> 'REFUNDED' OR refund_kind IS NOT NULL),
    ADD CONSTRAINT billing_transaction_period_order CHECK (period_start_at IS NULL OR period_end_at IS NULL
        OR period_start_at <= period_end_at);

-- A refund whose amount the store did not state is the refunded charge's amount, negated: filled on insert, and when
-- the charge arrives after its refund.
CREATE FUNCTION billing_transaction_refund_amount() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT -c.amount_micros, c.currency_code INTO NEW.amount_micros, NEW.currency_code
    FROM billing_transaction c
    WHERE c.transaction_key = NEW.refunded_transaction_key AND c.amount_micros IS NOT NULL AND c.amount_micros > 0;
    RETURN NEW;
END $$;
CREATE TRIGGER billing_transaction_refund_amount_trg BEFORE INSERT OR UPDATE OF refunded_transaction_key ON billing_transaction
    FOR EACH ROW WHEN (NEW.event_type = 'REFUNDED' AND NEW.amount_micros IS NULL AND NEW.refunded_transaction_key IS NOT NULL
                       AND NEW.refund_kind IS DISTINCT FROM 'FAMILY_REVOKE')
    EXECUTE FUNCTION billing_transaction_refund_amount();

CREATE FUNCTION billing_transaction_late_charge() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE billing_transaction SET amount_micros = -NEW.amount_micros, currency_code = NEW.currency_code
    WHERE refunded_transaction_key = NEW.transaction_key AND event_type = 'REFUNDED' AND amount_micros IS NULL
      AND refund_kind IS DISTINCT FROM 'FAMILY_REVOKE';
    RETURN NULL;
END $$;
CREATE TRIGGER billing_transaction_late_charge_trg AFTER INSERT ON billing_transaction
    FOR EACH ROW WHEN (NEW.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                       AND NEW.amount_micros > 0)
    EXECUTE FUNCTION billing_transaction_late_charge();

-- The same rule set-based, for bulk loads that disable the row triggers (a world load drops the indexes the triggers
-- would need); returns how many refunds it filled.
CREATE FUNCTION billing_transaction_fill_refund_amounts() RETURNS bigint LANGUAGE sql AS $$
    WITH filled AS (
        UPDATE billing_transaction r SET amount_micros = -c.amount_micros, currency_code = c.currency_code
        FROM billing_transaction c
        WHERE r.event_type = 'REFUNDED' AND r.amount_micros IS NULL AND r.refund_kind IS DISTINCT FROM 'FAMILY_REVOKE'
          AND c.transaction_key = r.refunded_transaction_key AND c.amount_micros > 0
        RETURNING 1)
    SELECT count(*) FROM filled
$$;

CREATE INDEX billing_transaction_refunded_key_idx ON billing_transaction (refunded_transaction_key)
    WHERE refunded_transaction_key IS NOT NULL;
CREATE INDEX billing_transaction_recorded_idx ON billing_transaction (recorded_at);

-- 6. Entitlement intervals as history: one row per subscription, plan and granted period; ended_at is set when the
-- grant stopped before valid_until (revocation, hold, expiry by time). Leakage as known at T: an interval with
-- recorded_at <= T covering T on a subscription whose status history says it was not entitled.
CREATE TABLE entitlement_interval (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id     uuid NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    billing_account_id  uuid NOT NULL REFERENCES billing_account (id) ON DELETE CASCADE,
    plan_id             uuid NOT NULL REFERENCES plan (id) ON DELETE RESTRICT,
    valid_from          timestamptz NOT NULL,
    valid_until         timestamptz,
    ended_at            timestamptz,
    recorded_at         timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (subscription_id, plan_id, valid_from),
    CHECK (valid_until IS NULL OR valid_from <= valid_until)
);
CREATE INDEX entitlement_interval_account_idx ON entitlement_interval (billing_account_id, plan_id, valid_from);

-- An entitlement row left active by a subscription that has since moved to another plan is stale (the cause of
-- active entitlements on REVOKED / EXPIRED subscriptions and of valid_until a period behind): switch it off.
UPDATE entitlement e SET is_active = false, updated_at = now()
FROM subscription s
WHERE s.id = e.source_subscription_id AND e.is_active AND s.plan_id <> e.plan_id;

INSERT INTO entitlement_interval (subscription_id, billing_account_id, plan_id, valid_from, valid_until, ended_at, recorded_at)
SELECT e.source_subscription_id, e.billing_account_id, e.plan_id, e.valid_from, GREATEST(e.valid_until, e.valid_from),
       CASE WHEN e.is_active THEN NULL ELSE LEAST(e.updated_at, GREATEST(e.valid_until, e.valid_from)) END, e.updated_at
FROM entitlement e
WHERE e.source_subscription_id IS NOT NULL AND e.valid_from IS NOT NULL
ON CONFLICT DO NOTHING;

-- 7. Price changes keep what changed where, when it was announced, and every state transition.
ALTER TABLE subscription_price_change
    ADD COLUMN product_id    text,
    -- Apple storefront (alpha-3) or Google regionCode (alpha-2), as the store sent it.
    ADD COLUMN region_code   text,
    ADD COLUMN announced_at  timestamptz;
UPDATE subscription_price_change c SET product_id = s.product_id, announced_at = c.created_at
FROM subscription s WHERE s.id = c.subscription_id;

CREATE TABLE subscription_price_change_transition (
    id               bigserial PRIMARY KEY,
    price_change_id  uuid NOT NULL REFERENCES subscription_price_change (id) ON DELETE CASCADE,
    state            price_change_state NOT NULL,
    -- The store's instant of the transition; recorded_at is when we learned it.
    at               timestamptz NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (price_change_id, state)
);
INSERT INTO subscription_price_change_transition (price_change_id, state, at, recorded_at)
SELECT id, 'PENDING', created_at, created_at FROM subscription_price_change
UNION ALL
SELECT id, state, COALESCE(effective_at, updated_at), updated_at FROM subscription_price_change WHERE state <> 'PENDING';

-- refunds from stored refund facts (issue 31; Reports/README.md, "Stored refund facts").
--
-- The report finds every refund, chargeback and family revocation again each night, each with the charge it refunds
-- (one index look-up per refund): 3.5 s of a 1M night for one day of new rows. A refund reads its own subscription's
-- rows (itself, the latest charge before a family revocation, the test rows that leave the subscription out) and
-- `subscription`; the refunded charge is found by its transaction key, normally a row of the same subscription. So:
--   * `report_refund_fact(as_of, basis, subscriptions)` is the report's per-subscription step (the given
--     subscriptions' refunds, or every one with NULL): per refund what the report groups, the refunded charge's
--     instant and currency when it is a row of the same subscription, else its key (`other_charge_key`);
--   * the second session of a run fills a temporary `report_refund_fact_run` with the stored facts of the
--     subscriptions that are no candidates since the store (`report_history_changed`, 0053) and the candidates'
--     computed ones (every one computed when there is no store of this function's, or `--full`); the report groups
--     them (`report_run_refund_fact`, which computes them from the history when the run did not fill them), looking
--     up the refunded charge by its key only for a fact whose charge is not its own subscription's (a charge of
--     another subscription changes without making this one a candidate; such a refund is rare, and read live);
--   * the run that stores the spans stores the facts it computed beside them (`report_stored_refund_fact`, same
--     transaction), or deletes the basis's when it computed none or the set's snapshot is unknown.

CREATE FUNCTION report_refund_fact(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, refund_kind text, store_reason text, micros bigint,
               refund_currency text, charge_currency text, fallback_currency text, refunded_key text,
               refund_at timestamptz, charge_at timestamptz, other_charge_key text)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT * FROM report_params($1, $1, $1, NULL, $2)
)
-- Every refund, chargeback and family revocation of a subscription that counts (not a test or sandbox purchase, no
-- test row), effective by the as-of instant (under basis 'known' also recorded by then); a family revocation once per
-- subscription and instant. (The refund rows through their partial index, migration 0058; the given subscriptions'
-- by the subscription index.)
SELECT DISTINCT ON (r.subscription_id, r.effective_at, CASE WHEN r.refund_kind = 'FAMILY_REVOKE' THEN '' ELSE r.id::text END)
       r.subscription_id, s.provider::text, r.refund_kind::text,
       CASE WHEN r.provider = 'APPLE' AND r.refund_kind = 'FAMILY_REVOKE'
                THEN 'apple revocationType ' || COALESCE(r.revocation_type, 'FAMILY_REVOKE')
            WHEN r.provider = 'APPLE'
                THEN 'apple revocationReason ' || COALESCE(CASE r.revocation_reason WHEN 0 THEN '0 other'
                                                               WHEN 1 THEN '1 app issue'
                                                               ELSE r.revocation_reason::text END, 'none')
            WHEN r.provider = 'GOOGLE'
                THEN 'google voidedSource ' || COALESCE(CASE r.voided_source WHEN 0 THEN '0 user' WHEN 1 THEN '1 developer'
                                                           WHEN 2 THEN '2 google' ELSE r.voided_source::text END, 'none')
                     || ' voidedReason ' || COALESCE(CASE r.voided_reason WHEN 0 THEN '0 other' WHEN 1 THEN '1 remorse'
                                                        WHEN 2 THEN '2 not received' WHEN 3 THEN '3 defective'
                                                        WHEN 4 THEN '4 accidental purchase' WHEN 5 THEN '5 fraud'
                                                        WHEN 6 THEN '6 friendly fraud' WHEN 7 THEN '7 chargeback'
                                                        ELSE r.voided_reason::text END, 'none')
            ELSE COALESCE(r.reason, 'none') END,
       CASE WHEN r.refund_kind = 'FAMILY_REVOKE' THEN 0 ELSE -r.amount_micros END,
       r.currency_code, c.currency_code, l.currency_code,
       COALESCE(r.refunded_transaction_key, r.transaction_key), r.effective_at, c.effective_at,
       CASE WHEN c.id IS NULL THEN r.refunded_transaction_key END
FROM billing_transaction r
JOIN subscription s ON s.id = r.subscription_id
CROSS JOIN params p
-- The refunded charge when it is a row of the same subscription (any instant, as the report read it).
LEFT JOIN billing_transaction c ON c.transaction_key = r.refunded_transaction_key AND c.subscription_id = r.subscription_id
-- The latest charge's currency before the refund, for a refund whose currency neither it nor its refunded charge gives
-- (a family revocation); looked up only for a refund without a currency of its own.
LEFT JOIN LATERAL (SELECT b.currency_code FROM billing_transaction b
                   WHERE r.currency_code IS NULL
                     AND b.subscription_id = r.subscription_id AND b.currency_code IS NOT NULL
                     AND b.effective_at <= r.effective_at AND b.event_type <> 'REFUNDED'
                   ORDER BY b.effective_at DESC, b.id DESC LIMIT 1) l ON true
WHERE r.refund_kind IS NOT NULL
  AND ((r.event_type = 'REFUNDED' AND r.refund_kind IN ('REFUND', 'CHARGEBACK')) OR r.refund_kind = 'FAMILY_REVOKE')
  AND ($3 IS NULL OR r.subscription_id = ANY ($3))
  AND r.effective_at <= p.as_of AND (NOT p.known_basis OR r.recorded_at <= p.as_of)
  AND NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
ORDER BY r.subscription_id, r.effective_at, CASE WHEN r.refund_kind = 'FAMILY_REVOKE' THEN '' ELSE r.id::text END, r.id
$fn$;
COMMENT ON FUNCTION report_refund_fact(timestamptz, text, uuid[]) IS
    'Per refund, chargeback or family revocation of the given subscriptions (all with NULL) as of $1 under basis $2: refunds'' per-subscription step, stored beside the spans (migration 0064).';

-- The run's facts: the second session fills a temporary report_refund_fact_run; the placeholder is always empty.
CREATE TABLE report_refund_fact_run (subscription_id uuid, provider text, refund_kind text, store_reason text, micros bigint,
                                     refund_currency text, charge_currency text, fallback_currency text, refunded_key text,
                                     refund_at timestamptz, charge_at timestamptz, other_charge_key text,
                                     CONSTRAINT report_refund_fact_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_refund_fact_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0064).';

CREATE FUNCTION report_run_refund_fact(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, provider text, refund_kind text, store_reason text, micros bigint,
               refund_currency text, charge_currency text, fallback_currency text, refunded_key text,
               refund_at timestamptz, charge_at timestamptz, other_charge_key text)
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_refund_fact_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'refund_fact' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_refund_fact($1, $2, NULL) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'refund_fact' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_refund_fact(timestamptz, text) IS
    'The run''s refund facts (report_refund_fact_run) when build-reports filled them for this as-of instant and basis; report_refund_fact($1, $2, NULL) otherwise (migration 0064).';

-- The store, per basis: each subscription's refund facts as of the span set's as-of instant and snapshot; a cache
-- (UNLOGGED), with the digest of report_refund_fact's SQL that computed it.
CREATE UNLOGGED TABLE report_stored_refund_fact (
    basis             text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id   uuid NOT NULL,
    provider          text,
    refund_kind       text,
    store_reason      text,
    micros            bigint,
    refund_currency   text,
    charge_currency   text,
    fallback_currency text,
    refunded_key      text,
    refund_at         timestamptz,
    charge_at         timestamptz,
    other_charge_key  text,
    definition        text NOT NULL
);
CREATE INDEX report_stored_refund_fact_subscription ON report_stored_refund_fact (basis, subscription_id);
COMMENT ON TABLE report_stored_refund_fact IS
    'build-reports: per basis, the refund facts (report_refund_fact) of every subscription as of the stored span set''s as-of instant and snapshot (migration 0064).';

-- plan_change_mix from stored plan changes (issue 31; Reports/README.md, "Plan-change mix").
--
-- A night's plan_change_mix computes the as-of month: it read that month's charges by index and looked each one's
-- previous charge up by index (287,000 look-ups at 1M subscriptions, 3.7-4.2 s of a night, for 1,900 plan changes).
-- Whether a charge is a plan change, and from what, reads only its subscription's charges and its `subscription` row
-- (test flags), so a subscription's plan changes change only when it is a candidate since the store
-- (`report_history_changed`, 0053). So, as the failure episodes (0055), refund facts (0064) and first charges (0065):
--   * `report_plan_change(as_of, basis, subscriptions)`: the plan changes of the given subscriptions (every one with
--     NULL) that count: each charge whose product or billing period differs from the subscription's previous charge
--     (in reading order: effective_at, then transaction_key), with its provider, instant, product, billing period,
--     currency and monthly-normalised amount in twelfths of a micro, and the previous charge's product, period and
--     amount;
--   * the late session of a run fills a temporary `report_plan_change_run` (the stored rows of the subscriptions that
--     are no candidates, the candidates' computed; every one computed when there is no store of this function's), and
--     the file reads it (`report_run_plan_change`, computed from the history when the run did not fill it);
--   * the run that stores the spans stores what it computed beside them (`report_stored_plan_change`).
-- The file's rows are the ones it computed before (the same charges, the same previous charge, the same subscriptions
-- counted).

CREATE FUNCTION report_plan_change(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, effective_at timestamptz, product_id text, billing_period text,
               currency text, twelfths bigint, from_product text, from_period text, from_twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT * FROM report_params($1, $1, $1, NULL, $2)
),
period_factor (billing_period, factor) AS (
    VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1)
),
-- Every subscription's (NULL): those without a test row whose charges read (as MRR reads them) are not all of one
-- product and one billing period (more than one distinct pair, NULL equal to NULL as in "differs" below); only they
-- can have a plan change: one hash pass over the charges and the test rows, then one over the distinct pairs.
changing AS (
    SELECT d.subscription_id
    FROM (SELECT DISTINCT h.subscription_id, h.is_test, h.product_id, h.billing_period
          FROM (SELECT b.subscription_id, b.is_test, b.product_id, b.billing_period,
                       b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                       AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
                       AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS charge
                FROM billing_transaction b CROSS JOIN params p
                WHERE $3 IS NULL) h
          WHERE h.charge OR h.is_test) d
    GROUP BY d.subscription_id
    HAVING NOT bool_or(d.is_test) AND count(*) > 1
),
-- Their rows, or the given subscriptions' (a night's candidates: each one's rows by index).
read_row AS (
    SELECT b.* FROM billing_transaction b WHERE b.subscription_id IN (SELECT c.subscription_id FROM changing c)
    UNION ALL
    SELECT b.* FROM (SELECT DISTINCT u.id FROM unnest($3) AS u(id)) g
    CROSS JOIN LATERAL (SELECT q.* FROM billing_transaction q WHERE q.subscription_id = g.id OFFSET 0) b
),
-- Each charge with the previous one of its subscription.
charge AS (
    SELECT b.subscription_id, b.effective_at, b.product_id, b.billing_period, b.currency_code,
           b.amount_micros * f.factor AS twelfths,
           lag(b.product_id) OVER w AS from_product, lag(b.billing_period) OVER w AS from_period,
           lag(b.amount_micros * f.factor) OVER w AS from_twelfths, row_number() OVER w AS charge_no
    FROM read_row b CROSS JOIN params p
    LEFT JOIN period_factor f USING (billing_period)
    WHERE b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
      AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
    WINDOW w AS (PARTITION BY b.subscription_id ORDER BY b.effective_at, b.transaction_key)
)
-- The plan changes of the subscriptions that count: no test or sandbox purchase, no test row.
SELECT c.subscription_id, s.provider::text, c.effective_at, c.product_id, c.billing_period, c.currency_code, c.twelfths,
       c.from_product, c.from_period, c.from_twelfths
FROM charge c
JOIN subscription s ON s.id = c.subscription_id
WHERE c.charge_no > 1
  AND (c.product_id IS DISTINCT FROM c.from_product OR c.billing_period IS DISTINCT FROM c.from_period)
  AND NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
$fn$;
COMMENT ON FUNCTION report_plan_change(timestamptz, text, uuid[]) IS
    'The plan changes (a charge whose product or billing period differs from the previous charge) of the subscriptions that count (the given ones, all with NULL) as of $1 under basis $2; plan_change_mix''s rows, stored beside the spans (migration 0069).';

-- The run's plan changes: the late session fills a temporary report_plan_change_run; the placeholder is always empty.
CREATE TABLE report_plan_change_run (subscription_id uuid, provider text, effective_at timestamptz, product_id text,
                                     billing_period text, currency text, twelfths bigint, from_product text,
                                     from_period text, from_twelfths bigint,
                                     CONSTRAINT report_plan_change_run_currency_shape CHECK (currency ~ '^[A-Z]{3}$'),
                                     CONSTRAINT report_plan_change_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_plan_change_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0069).';

CREATE FUNCTION report_run_plan_change(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, provider text, effective_at timestamptz, product_id text, billing_period text,
               currency text, twelfths bigint, from_product text, from_period text, from_twelfths bigint)
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_plan_change_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'plan_change' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_plan_change($1, $2, NULL) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'plan_change' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_plan_change(timestamptz, text) IS
    'The run''s plan changes (report_plan_change_run) when build-reports filled them for this as-of instant and basis; report_plan_change($1, $2, NULL) otherwise (migration 0069).';

-- The store, per basis, as of the span set's as-of instant and snapshot; a cache (UNLOGGED), with the digest of
-- report_plan_change's SQL that computed it.
CREATE UNLOGGED TABLE report_stored_plan_change (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id uuid NOT NULL,
    provider        text,
    effective_at    timestamptz,
    product_id      text,
    billing_period  text,
    currency        text CHECK (currency ~ '^[A-Z]{3}$'),
    twelfths        bigint,
    from_product    text,
    from_period     text,
    from_twelfths   bigint,
    definition      text NOT NULL
);
CREATE INDEX report_stored_plan_change_subscription ON report_stored_plan_change (basis, subscription_id);
COMMENT ON TABLE report_stored_plan_change IS
    'build-reports: per basis, the plan changes (report_plan_change) of every subscription as of the stored span set''s as-of instant and snapshot (migration 0069).';

-- Stored trials: what `trial_conversion` derives from one subscription's history, stored with its spans (issue 31;
-- Reports/README.md, "Stored trials").
--
-- `trial_conversion.sql` sorted the history of every subscription with a free trial and grouped it per subscription
-- on every run: 12.5 s of a 1M-subscription night's 86 s second session, for a night that changes a few thousand of
-- them. Per subscription, its trial (start, product, country) and what became of it (first paid charge, first billing
-- failure, first ending, the auto-renew switch at the trial's end) read exactly the rows and columns the span digest
-- (`report_span_input`, 0031) covers: the rows of a rank read under the as-of instant and basis, and test rows, with
-- their event type, key, instant, amount, product, country and period end, and the subscription's provider and test
-- and sandbox flags. (The as-of instant itself enters only as "is the row read": a switch is looked for up to the
-- trial's end or the as-of instant, and no row after the as-of instant is read.) So a subscription whose span digest
-- is unchanged has the same trial row, and build-reports stores the trial rows beside the spans: recomputed for the
-- subscriptions whose digest changed, read back for the others, replaced together with their digests.
--
-- `report_trial(as_of, basis, subscriptions)` is the `trial` step the file had (its rows unchanged), for the given
-- subscriptions or, with NULL, all; `report_run_trial` returns the run's table (`report_trial_run`, filled by
-- build-reports like the other report_run_* tables, 0021) when filled for these parameters and computes it otherwise,
-- so the file still runs by hand.
CREATE FUNCTION report_trial(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, trial_at timestamptz, trial_product text, trial_country text,
               converted_at timestamptz, failed_at timestamptz, ended_at timestamptz, off_at timestamptz, on_at timestamptz)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT p.as_of, p.known_basis FROM report_params($1, $1, $1, NULL, $2) p
),
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox AND ($3 IS NULL OR s.id = ANY ($3))
),
-- The subscriptions that can have a trial: those with a charge of 0 read (rank 0, below). Only their rows are sorted.
trial_candidate AS (
    SELECT DISTINCT b.subscription_id
    FROM billing_transaction b CROSS JOIN params p
    WHERE b.amount_micros = 0 AND report_row_rank(b.event_type, b.amount_micros, b.period_end_at) = 0
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND ($3 IS NULL OR b.subscription_id = ANY ($3))
),
-- The rows read (effective by the as-of instant; under 'known' also recorded by then), ranked by the schema's
-- report_row_rank (migration 0026): 0 charge, 1 grace, 2 hold or pause, 3 ending, 4 the auto-renew switch.
history AS (
    SELECT h.*
    FROM (SELECT b.subscription_id, sub.provider, b.transaction_key, b.effective_at, b.is_test, b.event_type,
                 b.amount_micros, b.product_id, b.country_code, b.period_end_at,
                 b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS read,
                 report_row_rank(b.event_type, b.amount_micros, b.period_end_at) AS rank
          FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
          WHERE b.subscription_id IN (SELECT c.subscription_id FROM trial_candidate c)) h
    WHERE h.is_test OR (h.read AND h.rank IS NOT NULL)
),
-- One sort by subscription in reading order; every row learns the subscription's first charge (the trial when its
-- amount is 0): its instant, period end, product and country.
ordered AS (
    SELECT h.*,
           bool_or(h.is_test) OVER whole AS test_subscription,
           (array_agg(h.amount_micros) FILTER (WHERE h.rank = 0) OVER whole)[1] AS first_amount,
           (array_agg(h.effective_at) FILTER (WHERE h.rank = 0) OVER whole)[1] AS trial_at,
           (array_agg(h.period_end_at) FILTER (WHERE h.rank = 0) OVER whole)[1] AS trial_end,
           (array_agg(h.product_id) FILTER (WHERE h.rank = 0) OVER whole)[1] AS trial_product,
           (array_agg(h.country_code) FILTER (WHERE h.rank = 0) OVER whole)[1] AS trial_country
    FROM history h
    WINDOW whole AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
)
-- Per trial: the first paid charge after it, the first billing failure (grace or hold), the first ending, and the
-- auto-renew switch at the trial's end (the as-of instant while it runs): the latest CANCELED against the latest
-- RESTARTED without a charge, from the trial's start. Grouped by the subscription alone, in the order `ordered` left
-- its rows (no second sort); its provider and trial are the same on each of its rows.
SELECT o.subscription_id, min(o.provider) AS provider, min(o.trial_at) AS trial_at,
       min(o.trial_product) AS trial_product, min(o.trial_country) AS trial_country,
       min(o.effective_at) FILTER (WHERE o.rank = 0 AND o.amount_micros > 0) AS converted_at,
       min(o.effective_at) FILTER (WHERE o.rank = 1 OR o.event_type = 'ENTERED_ON_HOLD') AS failed_at,
       min(o.effective_at) FILTER (WHERE o.rank = 3) AS ended_at,
       max(o.effective_at) FILTER (WHERE o.event_type = 'CANCELED' AND o.effective_at <= LEAST(o.trial_end, p.as_of)) AS off_at,
       max(o.effective_at) FILTER (WHERE o.event_type = 'RESTARTED' AND o.rank = 4
                                     AND o.effective_at <= LEAST(o.trial_end, p.as_of)) AS on_at
FROM ordered o CROSS JOIN params p
WHERE NOT o.test_subscription AND o.first_amount = 0
GROUP BY o.subscription_id
$fn$;

COMMENT ON FUNCTION report_trial(timestamptz, text, uuid[]) IS
    'Per subscription with a free trial (of the given ones, or all with NULL), the trial and what became of it as of $1 under basis $2: trial_conversion''s per-subscription step, stored with the spans (migration 0051).';

-- The run's trials: build-reports fills a temporary report_trial_run (from the store and the recomputed
-- subscriptions); the placeholder is always empty.
CREATE TABLE report_trial_run (subscription_id uuid, provider text, trial_at timestamptz, trial_product text,
                               trial_country text, converted_at timestamptz, failed_at timestamptz, ended_at timestamptz,
                               off_at timestamptz, on_at timestamptz,
                               CONSTRAINT report_trial_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_trial_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0051).';

CREATE FUNCTION report_run_trial(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, provider text, trial_at timestamptz, trial_product text, trial_country text,
               converted_at timestamptz, failed_at timestamptz, ended_at timestamptz, off_at timestamptz, on_at timestamptz)
LANGUAGE sql STABLE AS $fn$
SELECT r.subscription_id, r.provider, r.trial_at, r.trial_product, r.trial_country, r.converted_at, r.failed_at,
       r.ended_at, r.off_at, r.on_at
FROM report_trial_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'trial' AND f.as_of = $1
                 AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
UNION ALL
SELECT t.subscription_id, t.provider, t.trial_at, t.trial_product, t.trial_country, t.converted_at, t.failed_at,
       t.ended_at, t.off_at, t.on_at
FROM report_trial($1, $4, NULL) t
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'trial' AND f.as_of = $1
                     AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
$fn$;

COMMENT ON FUNCTION report_run_trial(timestamptz, timestamptz, timestamptz, text) IS
    'The run''s trials (report_trial_run) when build-reports filled them for these parameters; report_trial($1, $4, NULL) otherwise (migration 0051).';

-- The store, per basis: each subscription's trial row as of the run that stored its span digest
-- (report_stored_span_input); a cache, like the spans (UNLOGGED, 0034), replaced with them.
CREATE UNLOGGED TABLE report_stored_trial (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id uuid NOT NULL,
    provider        text,
    trial_at        timestamptz,
    trial_product   text,
    trial_country   text,
    converted_at    timestamptz,
    failed_at       timestamptz,
    ended_at        timestamptz,
    off_at          timestamptz,
    on_at           timestamptz,
    PRIMARY KEY (basis, subscription_id)
);
COMMENT ON TABLE report_stored_trial IS
    'build-reports: per basis, the trial row (report_trial) of each subscription of report_stored_span_input that has one (migration 0051).';

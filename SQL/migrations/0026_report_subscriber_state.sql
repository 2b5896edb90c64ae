-- The state of every subscription at every month-end snapshot (issue 30), shared by Reports/subscribers.sql and
-- Reports/kpis.sql (the active subscribers of ARPU): defined once here, as the MRR contributions are in 0022.
-- Definitions: Reports/README.md, "Subscribers".
--
-- A subscription's state at a snapshot comes from its latest MRR state row at or before it (the rows and their order
-- at one instant are those of "MRR": charges, grace, hold and pause, endings; each kind by transaction_key), with the
-- auto-renew switch (CANCELED off; RESTARTED without a charge, or any charge, on) read after them:
--   trialing                a charge of 0 (a free trial) whose period runs;
--   paying                  a paid charge whose period runs, auto-renew on;
--   cancelled_paid_through  a paid charge whose period runs, auto-renew off;
--   grace                   a grace row until its end (expires_at when later than the row; open otherwise);
--   billing_retry           a hold row (Google account hold, Apple billing retry), or a grace row past its end;
--   paused                  a PAUSED row;
-- and no state (not counted) after a charge's period ended with nothing after it, or after EXPIRED, REVOKED or
-- REFUNDED. Test and sandbox purchases count nowhere. Like report_contribution, the history is read once and sorted
-- once by subscription in reading order; each row's span is placed on the snapshots by a binary search.
-- The rank of a history row in the reading order of "MRR" (Reports/README.md, "Order at one instant"), shared by the
-- files that read a subscription's rows in that order: 0 a charge (a paid period bought at a price, a free trial's 0
-- included), 1 ENTERED_GRACE_PERIOD, 2 ENTERED_ON_HOLD or PAUSED, 3 EXPIRED, REVOKED or REFUNDED, 4 the auto-renew
-- switch (CANCELED; RESTARTED without a charge); NULL for the other rows.
CREATE FUNCTION report_row_rank(event_type billing_event_type, amount_micros bigint, period_end_at timestamptz) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN $1 IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                 AND $2 IS NOT NULL AND $3 IS NOT NULL THEN 0
            WHEN $1 = 'ENTERED_GRACE_PERIOD' THEN 1
            WHEN $1 IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
            WHEN $1 IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3
            WHEN $1 IN ('CANCELED', 'RESTARTED') THEN 4 END
$fn$;

CREATE FUNCTION report_subscriber_state(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, subscription_id uuid, product_id text, state text)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    SELECT p.as_of, p.known_basis FROM report_params($1, $2, $3, NULL, $4) p
),
snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
),
-- The rows read, ranked as in report_contribution (0 charge, 1 grace, 2 hold or pause, 3 ending) plus 4: the
-- auto-renew switch (CANCELED, or RESTARTED without a charge). Test rows are kept only to exclude their subscription.
history AS (
    SELECT h.*
    FROM (SELECT b.subscription_id, sub.provider, b.transaction_key, b.effective_at, b.is_test, b.amount_micros,
                 b.product_id,
                 CASE WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 'grace' WHEN b.event_type = 'ENTERED_ON_HOLD' THEN 'hold'
                      WHEN b.event_type = 'PAUSED' THEN 'paused' WHEN b.event_type = 'CANCELED' THEN 'off' ELSE 'other' END AS kind,
                 CASE WHEN b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                           AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL THEN b.period_end_at
                      WHEN b.event_type = 'ENTERED_GRACE_PERIOD' AND b.expires_at > b.effective_at THEN b.expires_at END AS end_at,
                 b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS read,
                 report_row_rank(b.event_type, b.amount_micros, b.period_end_at) AS rank
          FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p) h
    WHERE h.is_test OR (h.read AND h.rank IS NOT NULL)
),
-- One sort, by subscription in reading order. For each row: the next row's instant; the state row in force (the
-- subscription's state rows as arrays, read at the row's state-row count), the latest charge's product (a free
-- trial's included) and the auto-renew switch (off after CANCELED; on after a charge or a RESTARTED).
ordered AS (
    SELECT h.subscription_id, h.provider, h.effective_at, h.product_id,
           bool_or(h.is_test) OVER whole AS test_subscription,
           lead(h.effective_at) OVER running AS next_at,
           count(*) FILTER (WHERE h.rank <= 3) OVER running AS state_no,
           count(*) FILTER (WHERE h.rank = 0) OVER running AS charge_no,
           count(*) FILTER (WHERE h.rank IN (0, 4)) OVER running AS switch_no,
           array_agg(CASE WHEN h.rank = 0 THEN (CASE WHEN h.amount_micros = 0 THEN 'trial' ELSE 'paid' END)
                          WHEN h.rank = 3 THEN 'ended' ELSE h.kind END) FILTER (WHERE h.rank <= 3) OVER whole AS kinds,
           array_agg(h.end_at) FILTER (WHERE h.rank <= 3) OVER whole AS ends,
           array_agg(h.product_id) FILTER (WHERE h.rank = 0) OVER whole AS products,
           array_agg(h.kind = 'off') FILTER (WHERE h.rank IN (0, 4)) OVER whole AS switches
    FROM history h
    WINDOW running AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                       ROWS UNBOUNDED PRECEDING),
           whole AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
-- From each row until the next one: the state row in force, what it says and until when.
segment AS (
    SELECT o.subscription_id, o.provider, o.effective_at AS from_at, o.next_at, o.kinds[o.state_no::int] AS kind,
           o.ends[o.state_no::int] AS end_at, COALESCE(o.products[o.charge_no::int], o.product_id) AS product_id,
           COALESCE(o.switches[o.switch_no::int], false) AS renewal_off
    FROM ordered o
    WHERE NOT o.test_subscription AND o.state_no > 0
),
-- The spans of each state (half-open [from_at, to_at); to_at NULL: open): a charge and a grace row until their end
-- (or the next row), a grace row past its end in billing retry until the next row, hold and pause until the next row.
-- (Two spans per row, zipped by unnest in the select list: a LATERAL VALUES list rescanned per row cost 5 s of 12.)
span AS (
    SELECT t.* FROM (
        SELECT s.subscription_id, s.provider, s.product_id,
               unnest(ARRAY[CASE s.kind WHEN 'trial' THEN 'trialing'
                                        WHEN 'paid' THEN CASE WHEN s.renewal_off THEN 'cancelled_paid_through' ELSE 'paying' END
                                        WHEN 'grace' THEN 'grace' WHEN 'hold' THEN 'billing_retry' WHEN 'paused' THEN 'paused' END,
                            CASE WHEN s.kind = 'grace' AND s.end_at IS NOT NULL THEN 'billing_retry' END]) AS state,
               unnest(ARRAY[s.from_at, GREATEST(s.from_at, s.end_at)]) AS from_at,
               unnest(ARRAY[LEAST(s.next_at, s.end_at), s.next_at]) AS to_at
        FROM segment s) t
    WHERE t.state IS NOT NULL
),
-- The snapshots inside each span (first_n .. last_n), by binary search over the snapshot instants as in 0022.
placed AS (
    SELECT sp.*,
           width_bucket(sp.from_at - interval '1 microsecond', i.ats) + 1 AS first_n,
           COALESCE(width_bucket(sp.to_at - interval '1 microsecond', i.ats), i.last_n) AS last_n
    FROM span sp CROSS JOIN snapshot_instants i
)
SELECT generate_series(pl.first_n, pl.last_n)::bigint AS n, pl.provider, pl.subscription_id, pl.product_id, pl.state
FROM placed pl
WHERE pl.last_n >= pl.first_n
$fn$;

COMMENT ON FUNCTION report_subscriber_state(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot n (report_snapshot), each counted subscription''s state and product; Reports/README.md "Subscribers".';

-- x / d rounded half to even, for exact x and d > 0 whose quotient's integer part is exact (x an integer, or a decimal
-- scaled by d): the reports' one rounding of an exact sum (Reports/README.md, "Rounding"). Negative x rounds by its
-- magnitude (-2.5 -> -2).
CREATE FUNCTION report_half_even(x numeric, d numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$
SELECT sign($1) * (div(abs($1), $2) + CASE WHEN 2 * mod(abs($1), $2) > $2
                                               OR (2 * mod(abs($1), $2) = $2 AND mod(div(abs($1), $2), 2) = 1)
                                          THEN 1 ELSE 0 END)
$fn$;

COMMENT ON FUNCTION report_half_even(numeric, numeric) IS
    'x / d rounded half to even, exactly (Reports/README.md "Rounding"); used by the reports of issue 30.';

-- Shared once per run like the contributions (0021): build-reports fills a temporary report_subscriber_state_run after
-- the movements, and the files read report_run_subscriber_state, which returns the filled rows for the run's parameters
-- and computes them otherwise (a file run by hand). The placeholder is always empty.
CREATE TABLE report_subscriber_state_run (n bigint, provider text, subscription_id uuid, product_id text, state text,
                                          CONSTRAINT report_subscriber_state_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_subscriber_state_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0026).';

CREATE FUNCTION report_run_subscriber_state(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, subscription_id uuid, product_id text, state text)
LANGUAGE sql STABLE AS $fn$
SELECT r.n, r.provider, r.subscription_id, r.product_id, r.state
FROM report_subscriber_state_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'subscriber_state' AND f.as_of = $1
                 AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
UNION ALL
SELECT s.n, s.provider, s.subscription_id, s.product_id, s.state
FROM report_subscriber_state($1, $2, $3, $4) s
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'subscriber_state' AND f.as_of = $1
                     AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
$fn$;

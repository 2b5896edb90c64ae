-- Incremental nightly build-reports (issue 31), step 1: per-subscription spans, stored, so a night re-sorts only the
-- history of the subscriptions whose rows changed (Reports/README.md, "Incremental runs").
--
-- What report_contribution (0022) and report_subscriber_state (0026) derive from a subscription's history does not
-- depend on the snapshots: each is a list of half-open spans [from_at, to_at) (to_at NULL: open) holding one value (a
-- contribution, or a state), placed on the snapshots by a binary search. report_span computes those spans, both kinds,
-- with exactly the rules and CTEs of 0022 and 0026 (moved here, not copied: the two functions are redefined below to
-- expand report_run_span); `subscriptions`, when not NULL, restricts it to those subscriptions. The rows of report_contribution
-- and report_subscriber_state are unchanged (ContributionEqualityTests against 0017; the hand, world and incremental
-- tests).
--
-- A subscription's spans are a function of its subscription row (provider, billing account, test and sandbox flags)
-- and of the history rows the two computations read (effective by the as-of instant, under 'known' also recorded by
-- then, of a rank they read, or test rows), nothing else. report_span_input digests exactly that per subscription (the
-- count and the 64-bit hash sum of those rows, with the subscription's columns and whether each row is read), so a
-- subscription whose digest equals the stored one has the stored spans, whichever way a change arrived (a late row in
-- a closed month, an update, a delete, a test flag, a claim moving the purchase to an account, a recovery repricing a
-- grace row) and whatever the clock or the commit order. build-reports stores both (report_stored_span*) and a night
-- recomputes the spans of the subscriptions whose digest differs; the rest are read back.

-- The spans of every counted subscription (of `subscriptions`, when not NULL): a contribution span (`state` NULL: twelfths > 0,
-- described by currency, country, product, plan and billing period, with the billing account) or a state span
-- (`state` set, with the product), each half-open [from_at, to_at), to_at NULL when open.
CREATE FUNCTION report_span(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, billing_account_id uuid, state text, from_at timestamptz,
               to_at timestamptz, currency text, country text, product_id text, plan_id uuid, billing_period text,
               twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    -- The as-of instant and the basis (report_params fails on any basis but 'corrected' or 'known', naming it).
    SELECT p.as_of, p.known_basis FROM report_params($1, $1, $1, NULL, $2) p
),
-- Monthly twelfths of an ISO billing period (whole twelfths: P1W is 52/12 of a month, P1Y 1/12).
period_factor (billing_period, factor) AS (
    VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1)
),
-- Who counts, by the subscription: not a test or sandbox purchase (nor one with a test row: `ordered`). An unclaimed
-- purchase (no billing account yet) is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS billing_account_id
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox AND ($3 IS NULL OR s.id = ANY ($3))
),
-- ===== The contribution spans (0022's rules, unchanged). =====
-- The history rows that matter, each with its rank: what it sets from its instant on, and its place among rows at one
-- instant: 0 CHARGE (a free trial is a charge of 0), 1 GRACE, 2 hold or pause, 3 expired, revoked, refunded. The
-- rows read are those effective by the as-of instant (under basis 'known' also recorded by then) of ranks 0 to 3;
-- test rows are kept whatever they are, only to exclude their subscription (`ordered`).
history AS (
    SELECT h.*
    FROM (SELECT b.subscription_id, sub.provider, sub.billing_account_id, b.transaction_key, b.effective_at, b.is_test,
                 b.expires_at, b.amount_micros, b.currency_code, b.country_code, b.product_id, b.plan_id,
                 b.billing_period, b.period_end_at, f.factor,
                 b.event_type = 'RECOVERED' AS recovered,
                 b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS read,
                 CASE WHEN b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                           AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL THEN 0
                      WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 1
                      WHEN b.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
                      WHEN b.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 END AS rank
          FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
          LEFT JOIN period_factor f USING (billing_period)) h
    WHERE h.is_test OR (h.read AND h.rank IS NOT NULL)
),
-- One sort, by subscription in reading order (rows at one instant in rank order, one rank by transaction_key); the
-- last row read holds. test_subscription: it has a test row; next_at: the next row's instant; charge_no, paid_no:
-- charges and paid charges read up to the row; charges, paid_charges: what a grace row reads of them.
ordered AS (
    SELECT h.*,
           bool_or(h.is_test) OVER whole AS test_subscription,
           lead(h.effective_at) OVER running AS next_at,
           count(*) FILTER (WHERE h.rank = 0) OVER running AS charge_no,
           count(*) FILTER (WHERE h.rank = 0 AND h.amount_micros > 0 AND h.factor IS NOT NULL) OVER running AS paid_no,
           array_agg(ROW(h.recovered, h.currency_code, h.country_code, h.product_id, h.plan_id, h.billing_period,
                         h.factor, h.amount_micros * h.factor)::report_grace_charge)
               FILTER (WHERE h.rank = 0) OVER whole AS charges,
           array_agg(ROW(h.recovered, h.currency_code, h.country_code, h.product_id, h.plan_id, h.billing_period,
                         h.factor, h.amount_micros * h.factor)::report_grace_charge)
               FILTER (WHERE h.rank = 0 AND h.amount_micros > 0 AND h.factor IS NOT NULL) OVER whole AS paid_charges
    FROM history h
    WINDOW running AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                       ROWS UNBOUNDED PRECEDING),
           whole AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
-- The charges around each grace row: n the first charge after it when that is a RECOVERED charge, l the latest charge
-- at or before it (a free trial's included), c the latest paid charge at or before it.
located AS (
    SELECT o.subscription_id, o.provider, o.billing_account_id, o.rank, o.effective_at, o.next_at, o.expires_at,
           o.period_end_at, o.amount_micros, o.factor, o.currency_code, o.country_code, o.product_id, o.plan_id,
           o.billing_period,
           CASE WHEN o.rank = 1 AND (o.charges[o.charge_no::int + 1]).recovered
                THEN o.charges[o.charge_no::int + 1] END AS n,
           CASE WHEN o.rank = 1 THEN o.charges[o.charge_no::int] END AS l,
           CASE WHEN o.rank = 1 THEN o.paid_charges[o.paid_no::int] END AS c
    FROM ordered o
    WHERE NOT o.test_subscription AND o.rank IN (0, 1)
),
-- What each charge or grace row contributes from its instant until the next row or its own end (Reports/README.md,
-- "MRR"; 0022 has the rules spelt out): nothing for a grace row without a paid charge before it.
valued AS (
    SELECT g.subscription_id, g.provider, g.billing_account_id, g.effective_at, g.next_at,
           CASE WHEN g.rank = 0 THEN g.period_end_at WHEN g.expires_at > g.effective_at THEN g.expires_at END AS end_at,
           CASE WHEN g.rank = 0 THEN g.amount_micros * g.factor
                WHEN (g.c).twelfths IS NOT NULL
                THEN COALESCE((g.n).twelfths, g.amount_micros * (g.l).factor, (g.c).twelfths) END AS twelfths,
           CASE WHEN g.rank = 0 THEN g.currency_code
                ELSE COALESCE((g.n).currency, g.currency_code, (g.c).currency) END AS currency,
           CASE WHEN g.rank = 0 THEN g.country_code
                ELSE COALESCE((g.n).country, (g.l).country, g.country_code) END AS country,
           CASE WHEN g.rank = 0 THEN g.product_id
                ELSE COALESCE((g.n).product_id, (g.l).product_id, g.product_id) END AS product_id,
           CASE WHEN g.rank = 0 THEN g.plan_id ELSE COALESCE((g.n).plan_id, (g.l).plan_id, g.plan_id) END AS plan_id,
           CASE WHEN g.rank = 0 THEN g.billing_period
                ELSE COALESCE((g.n).billing_period, (g.l).billing_period, g.billing_period) END AS billing_period
    FROM located g
),
-- ===== The state spans (0026's rules, unchanged). =====
-- The rows read, ranked as above plus 4: the auto-renew switch (CANCELED, or RESTARTED without a charge).
state_history AS (
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
-- One sort, by subscription in reading order: the next row's instant, the state row in force, the latest charge's
-- product and the auto-renew switch.
state_ordered AS (
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
    FROM state_history h
    WINDOW running AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                       ROWS UNBOUNDED PRECEDING),
           whole AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
segment AS (
    SELECT o.subscription_id, o.provider, o.effective_at AS from_at, o.next_at, o.kinds[o.state_no::int] AS kind,
           o.ends[o.state_no::int] AS end_at, COALESCE(o.products[o.charge_no::int], o.product_id) AS product_id,
           COALESCE(o.switches[o.switch_no::int], false) AS renewal_off
    FROM state_ordered o
    WHERE NOT o.test_subscription AND o.state_no > 0
),
-- Two spans per row (the state, and billing retry after a grace's end), zipped by unnest in the select list.
state_span AS (
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
)
SELECT v.subscription_id, v.provider, v.billing_account_id, NULL::text, v.effective_at, LEAST(v.next_at, v.end_at),
       v.currency, v.country, v.product_id, v.plan_id, v.billing_period, v.twelfths
FROM valued v
WHERE v.twelfths > 0
UNION ALL
SELECT s.subscription_id, s.provider, NULL::uuid, s.state, s.from_at, s.to_at, NULL::text, NULL::text, s.product_id,
       NULL::uuid, NULL::text, NULL::bigint
FROM state_span s
$fn$;

COMMENT ON FUNCTION report_span(timestamptz, text, uuid[]) IS
    'Per counted subscription (of `subscriptions` when not NULL), its contribution spans (state NULL) and state spans: what report_contribution and report_subscriber_state place on the snapshots (migration 0031).';

-- Per subscription with any row read, the digest of everything report_span reads of it: the count and the 64-bit hash
-- sum of its history rows that either computation reads (test rows, and rows read of ranks 0 to 4), each with whether
-- it is read and with its subscription's provider, billing account and test and sandbox flags. A subscription without
-- such rows has no spans and no digest.
CREATE FUNCTION report_span_input(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, row_count bigint, hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    SELECT p.as_of, p.known_basis FROM report_params($1, $1, $1, NULL, $2) p
)
SELECT h.subscription_id, count(*), sum(hashtextextended(h.r, 0))
FROM (SELECT b.subscription_id,
             ROW(s.provider, s.billing_account_id, s.is_test_purchase, s.is_sandbox, b.event_type, b.transaction_key,
                 b.effective_at, b.is_test, b.expires_at, b.amount_micros, b.currency_code, b.country_code, b.product_id,
                 b.plan_id, b.billing_period, b.period_end_at,
                 b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of))::text AS r,
             b.is_test OR (b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
                           AND report_row_rank(b.event_type, b.amount_micros, b.period_end_at) IS NOT NULL) AS counted
      FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id CROSS JOIN params p) h
WHERE h.counted
GROUP BY h.subscription_id
$fn$;

COMMENT ON FUNCTION report_span_input(timestamptz, text) IS
    'Per subscription, the count and hash sum of what report_span reads of it; equal digests mean equal spans (migration 0031).';

-- The run's spans: build-reports fills a temporary report_span_run first (from the store and the recomputed
-- subscriptions); the placeholder is always empty. As the other report_run_* functions (0021): the filled rows for
-- exactly these parameters, computed otherwise.
CREATE TABLE report_span_run (subscription_id uuid, provider text, billing_account_id uuid, state text,
                              from_at timestamptz, to_at timestamptz, currency text, country text, product_id text,
                              plan_id uuid, billing_period text, twelfths bigint,
                              CONSTRAINT report_span_run_currency_shape CHECK (currency ~ '^[A-Z]{3}$'),
                              CONSTRAINT report_span_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_span_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0031).';

CREATE FUNCTION report_run_span(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, provider text, billing_account_id uuid, state text, from_at timestamptz,
               to_at timestamptz, currency text, country text, product_id text, plan_id uuid, billing_period text,
               twelfths bigint)
LANGUAGE sql STABLE AS $fn$
SELECT r.subscription_id, r.provider, r.billing_account_id, r.state, r.from_at, r.to_at, r.currency, r.country,
       r.product_id, r.plan_id, r.billing_period, r.twelfths
FROM report_span_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'span' AND f.as_of = $1
                 AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
UNION ALL
SELECT s.subscription_id, s.provider, s.billing_account_id, s.state, s.from_at, s.to_at, s.currency, s.country,
       s.product_id, s.plan_id, s.billing_period, s.twelfths
FROM report_span($1, $4, NULL) s
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'span' AND f.as_of = $1
                     AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
$fn$;

-- The contributions: the contribution spans placed on the snapshots (0022's arithmetic: width_bucket over the
-- snapshot instants gives the first and last snapshot inside each span; the select list expands that range).
CREATE OR REPLACE FUNCTION report_contribution(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, subscription_id uuid, currency text, country text,
               product_id text, plan_id uuid, billing_period text, twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
placed AS (
    SELECT sp.*,
           width_bucket(sp.from_at - interval '1 microsecond', i.ats) + 1 AS first_n,
           COALESCE(width_bucket(sp.to_at - interval '1 microsecond', i.ats), i.last_n) AS last_n
    FROM report_run_span($1, $2, $3, $4) sp CROSS JOIN snapshot_instants i
    WHERE sp.state IS NULL
)
SELECT generate_series(pl.first_n, pl.last_n)::bigint AS n, pl.provider, pl.billing_account_id, pl.subscription_id,
       pl.currency, pl.country, pl.product_id, pl.plan_id, pl.billing_period, pl.twelfths
FROM placed pl
WHERE pl.last_n >= pl.first_n
$fn$;

-- The subscriber states: the state spans placed on the snapshots likewise (0026).
CREATE OR REPLACE FUNCTION report_subscriber_state(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, subscription_id uuid, product_id text, state text)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
placed AS (
    SELECT sp.*,
           width_bucket(sp.from_at - interval '1 microsecond', i.ats) + 1 AS first_n,
           COALESCE(width_bucket(sp.to_at - interval '1 microsecond', i.ats), i.last_n) AS last_n
    FROM report_run_span($1, $2, $3, $4) sp CROSS JOIN snapshot_instants i
    WHERE sp.state IS NOT NULL
)
SELECT generate_series(pl.first_n, pl.last_n)::bigint AS n, pl.provider, pl.subscription_id, pl.product_id, pl.state
FROM placed pl
WHERE pl.last_n >= pl.first_n
$fn$;

-- The store: per basis, the definition the spans were computed with (a changed report_span or report_span_input
-- invalidates every stored span), per subscription its digest, and its spans. A cache: deleting its rows only costs a
-- full recomputation of the spans. build-reports replaces a subscription's digest and spans together, so the two
-- always come from one run's snapshot.
CREATE TABLE report_stored_span_set (
    basis       text PRIMARY KEY CHECK (basis IN ('corrected', 'known')),
    definition  text NOT NULL
);
COMMENT ON TABLE report_stored_span_set IS
    'build-reports: per basis, the digest of the span functions the stored spans were computed with (migration 0031).';

CREATE TABLE report_stored_span_input (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id uuid NOT NULL,
    row_count       bigint NOT NULL,
    hash_sum        numeric NOT NULL,
    PRIMARY KEY (basis, subscription_id)
);
COMMENT ON TABLE report_stored_span_input IS
    'build-reports: per basis and subscription, report_span_input when its stored spans were computed (migration 0031).';

CREATE TABLE report_stored_span (
    basis              text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id    uuid NOT NULL,
    provider           text NOT NULL,
    billing_account_id uuid,
    state              text,
    from_at            timestamptz NOT NULL,
    to_at              timestamptz,
    currency           text CHECK (currency ~ '^[A-Z]{3}$'),
    country            text,
    product_id         text,
    plan_id            uuid,
    billing_period     text,
    twelfths           bigint
);
CREATE INDEX report_stored_span_subscription ON report_stored_span (basis, subscription_id);
COMMENT ON TABLE report_stored_span IS
    'build-reports: per basis, the stored spans (report_span) of each subscription of report_stored_span_input (migration 0031).';

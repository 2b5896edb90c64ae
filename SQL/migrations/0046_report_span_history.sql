-- build-reports computes the spans in Swift from one ordered stream of the history (issue 31; Reports/README.md,
-- "Spans"). What that stream holds is this function: the history rows report_span reads, each with its rank, kind,
-- end, factor and flags, as 0035's `history` computed them inside report_span. report_span now reads it too, so
-- the one definition of which rows count and what each says is here; report_span stays the readable definition of
-- what the spans are (SpanEqualityTests compare build-reports' spans with it on every world the tests build).
--
-- Rows at one instant and rank are ordered by transaction_key COLLATE "C" (its bytes), in report_span as in the
-- stream, whatever the database's collation (0035 used the default collation, which under the C.UTF-8 collation this
-- project's clusters use orders the same). The definition digest of the stored spans changes, so the first run after
-- this migration recomputes and stores every span.
CREATE FUNCTION report_span_history(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, billing_account_id uuid, transaction_key text, effective_at timestamptz,
               is_test boolean, expires_at timestamptz, amount_micros bigint, currency_code text, country_code text,
               product_id text, plan_id uuid, billing_period text, period_end_at timestamptz, factor integer,
               recovered boolean, kind text, end_at timestamptz, read boolean, rank integer)
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
)
-- The history rows that matter, each with its rank (report_row_rank): what it sets from its instant on, and its place
-- among rows at one instant: 0 CHARGE (a free trial is a charge of 0), 1 GRACE, 2 hold or pause, 3 expired, revoked,
-- refunded, 4 the auto-renew switch (CANCELED, or RESTARTED without a charge). The rows read are those effective by
-- the as-of instant (under basis 'known' also recorded by then) of ranks 0 to 4 (the contributions read ranks 0 to 3,
-- the states all five); test rows are kept whatever they are, only to exclude their subscription (`ordered`).
SELECT h.*
FROM (SELECT b.subscription_id, sub.provider, sub.billing_account_id, b.transaction_key, b.effective_at, b.is_test,
             b.expires_at, b.amount_micros, b.currency_code, b.country_code, b.product_id, b.plan_id,
             b.billing_period, b.period_end_at, f.factor,
             b.event_type = 'RECOVERED' AS recovered,
             CASE WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 'grace' WHEN b.event_type = 'ENTERED_ON_HOLD' THEN 'hold'
                  WHEN b.event_type = 'PAUSED' THEN 'paused' WHEN b.event_type = 'CANCELED' THEN 'off' ELSE 'other' END AS kind,
             CASE WHEN b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                       AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL THEN b.period_end_at
                  WHEN b.event_type = 'ENTERED_GRACE_PERIOD' AND b.expires_at > b.effective_at THEN b.expires_at END AS end_at,
             b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS read,
             report_row_rank(b.event_type, b.amount_micros, b.period_end_at) AS rank
      FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
      LEFT JOIN period_factor f USING (billing_period)) h
WHERE h.is_test OR (h.read AND h.rank IS NOT NULL)
$fn$;

COMMENT ON FUNCTION report_span_history(timestamptz, text, uuid[]) IS
    'Per counted subscription (of `subscriptions` when not NULL), the history rows report_span reads, with their rank, kind and end, and its test rows (migration 0046).';

-- report_span as 0035 defined it, reading its history from report_span_history.
CREATE OR REPLACE FUNCTION report_span(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, billing_account_id uuid, state text, from_at timestamptz,
               to_at timestamptz, currency text, country text, product_id text, plan_id uuid, billing_period text,
               twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH
-- The rows report_span_history reads (its comment says which), test rows only to exclude their subscription.
history AS (
    SELECT h.* FROM report_span_history($1, $2, $3) h
),
-- One sort, by subscription in reading order (rows at one instant in rank order, one rank by transaction_key); the
-- last row read holds. Per row, of its subscription: test_subscription, it has a test row; next_at, the next row's
-- instant; state_no, charge_no, paid_no, switch_no: the rows of ranks 0 to 3, charges, paid charges and charges or
-- switches read up to the row; state_ats, kinds, ends: the instant, kind and end of every row of ranks 0 to 3;
-- charges, paid_charges: what a grace row and a state span read of the charges; switches: the auto-renew switch after
-- each charge or switch. Read at the row's counts (an index past the end is NULL): the contribution's next row (ranks
-- 0 to 3: the switch does not end a contribution), the charges around a grace row (n the first charge after it when
-- that is a RECOVERED charge, l the latest charge at or before it, a free trial's included, c the latest paid charge
-- at or before it), and the state row in force with the latest charge's product and the switch.
ordered AS (
    SELECT o.subscription_id, o.provider, o.billing_account_id, o.rank, o.effective_at, o.next_at, o.expires_at,
           o.period_end_at, o.amount_micros, o.factor, o.currency_code, o.country_code, o.product_id, o.plan_id,
           o.billing_period, o.state_no,
           o.state_ats[o.state_no::int + 1] AS next_value_at,
           CASE WHEN o.rank = 1 AND (o.charges[o.charge_no::int + 1]).recovered
                THEN o.charges[o.charge_no::int + 1] END AS n,
           CASE WHEN o.rank = 1 THEN o.charges[o.charge_no::int] END AS l,
           CASE WHEN o.rank = 1 THEN o.paid_charges[o.paid_no::int] END AS c,
           o.kinds[o.state_no::int] AS state_kind, o.ends[o.state_no::int] AS state_end_at,
           COALESCE((o.charges[o.charge_no::int]).product_id, o.product_id) AS charge_product_id,
           COALESCE(o.switches[o.switch_no::int], false) AS renewal_off
    FROM (SELECT h.*,
                 bool_or(h.is_test) OVER whole AS test_subscription,
                 lead(h.effective_at) OVER running AS next_at,
                 count(*) FILTER (WHERE h.rank <= 3) OVER running AS state_no,
                 count(*) FILTER (WHERE h.rank = 0) OVER running AS charge_no,
                 count(*) FILTER (WHERE h.rank = 0 AND h.amount_micros > 0 AND h.factor IS NOT NULL) OVER running AS paid_no,
                 count(*) FILTER (WHERE h.rank IN (0, 4)) OVER running AS switch_no,
                 array_agg(h.effective_at) FILTER (WHERE h.rank <= 3) OVER whole AS state_ats,
                 array_agg(CASE WHEN h.rank = 0 THEN (CASE WHEN h.amount_micros = 0 THEN 'trial' ELSE 'paid' END)
                                WHEN h.rank = 3 THEN 'ended' ELSE h.kind END) FILTER (WHERE h.rank <= 3) OVER whole AS kinds,
                 array_agg(h.end_at) FILTER (WHERE h.rank <= 3) OVER whole AS ends,
                 array_agg(ROW(h.recovered, h.currency_code, h.country_code, h.product_id, h.plan_id, h.billing_period,
                               h.factor, h.amount_micros * h.factor)::report_grace_charge)
                     FILTER (WHERE h.rank = 0) OVER whole AS charges,
                 array_agg(ROW(h.recovered, h.currency_code, h.country_code, h.product_id, h.plan_id, h.billing_period,
                               h.factor, h.amount_micros * h.factor)::report_grace_charge)
                     FILTER (WHERE h.rank = 0 AND h.amount_micros > 0 AND h.factor IS NOT NULL) OVER whole AS paid_charges,
                 array_agg(h.kind = 'off') FILTER (WHERE h.rank IN (0, 4)) OVER whole AS switches
          FROM history h
          WINDOW running AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key COLLATE "C"
                             ROWS UNBOUNDED PRECEDING),
                 whole AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key COLLATE "C"
                           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) o
    WHERE NOT o.test_subscription
),
-- ===== The contribution spans (0022's rules, unchanged). =====
-- What each charge or grace row contributes from its instant until the next row of ranks 0 to 3 or its own end
-- (Reports/README.md, "MRR"; 0022 has the rules spelt out): nothing for a grace row without a paid charge before it.
valued AS (
    SELECT g.subscription_id, g.provider, g.billing_account_id, g.effective_at, g.next_value_at AS next_at,
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
    FROM ordered g
    WHERE g.rank IN (0, 1)
),
-- ===== The state spans (0026's rules, unchanged). =====
-- From each row until the next one (of any rank): the state row in force, what it says and until when.
segment AS (
    SELECT o.subscription_id, o.provider, o.effective_at AS from_at, o.next_at, o.state_kind AS kind,
           o.state_end_at AS end_at, o.charge_product_id AS product_id, o.renewal_off
    FROM ordered o
    WHERE o.state_no > 0
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
    'Per counted subscription (of `subscriptions` when not NULL), its contribution spans (state NULL) and state spans: what report_contribution and report_subscriber_state place on the snapshots; one sort of the history (migrations 0035, 0046).';

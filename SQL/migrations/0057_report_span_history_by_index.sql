-- A night reads its candidates' history by index (issue 31; Reports/README.md, "Changed since the last store").
--
-- A night recomputes the spans of the candidates since the store only, reading their history through
-- report_span_history (0046) with their ids: the function named them on `subscription` alone, so PostgreSQL joined
-- every history row to them by hash (a scan of the whole history: 3.7 s of a 1M night for 16,300 candidates). The
-- same filter on the history rows lets it read only theirs, by the (subscription, effective_at) index (1.0 s). With
-- NULL (every subscription: a full run) the filter folds away. The rows are the same; the definition digest of the
-- stored spans changes, so the first run after this migration recomputes and stores every span.
CREATE OR REPLACE FUNCTION report_span_history(as_of timestamptz, basis text, subscriptions uuid[])
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
      LEFT JOIN period_factor f USING (billing_period)
      -- (the given subscriptions' rows by index: the subscriber join alone was a hash join over every row)
      WHERE ($3 IS NULL OR b.subscription_id = ANY ($3))) h
WHERE h.is_test OR (h.read AND h.rank IS NOT NULL)
$fn$;

COMMENT ON FUNCTION report_span_history(timestamptz, text, uuid[]) IS
    'Per counted subscription (of `subscriptions` when not NULL, their rows read by index), the history rows report_span reads, with their rank, kind and end, and its test rows (migrations 0046, 0057).';

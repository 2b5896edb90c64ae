-- Two per-subscription reads of a night that hashed the whole `subscription` table for a few thousand subscriptions
-- (issue 31; Reports/README.md, "A night's candidates by key").
--
-- `report_span_input` (the span digests of a night's candidates, the first step of the job's chain) and the candidate
-- branch of `report_first_charge` (cohorts' first charges, in the late session) each joined the candidates' rows to
-- `subscription` by hashing all of its 1M rows (0.5–0.7 s each at 1M subscriptions), because a list of keys given to
-- one side of a join is not carried to the other. Both now name the candidates on `subscription` itself. The span
-- digests take the candidates as a third argument (NULL: every subscription; the two-argument form is that call, so a
-- whole run's plan is the one it was); the first charges read the candidates' `subscription` rows by key. Same rows;
-- the span store's definition and the first charges' change with the functions' SQL, so the first night after this
-- migration recomputes every span and every first charge once.

CREATE FUNCTION report_span_input(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, row_count bigint, hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    SELECT p.as_of, p.known_basis FROM report_params($1, $1, $1, NULL, $2) p
)
SELECT h.subscription_id, count(*), sum(h.hash)
FROM (SELECT b.subscription_id,
             hash_record_extended(ROW(s.provider, s.billing_account_id, s.is_test_purchase, s.is_sandbox, b.event_type,
                                      b.transaction_key, b.effective_at, b.is_test, b.expires_at, b.amount_micros,
                                      b.currency_code, b.country_code, b.product_id, b.plan_id, b.billing_period,
                                      b.period_end_at,
                                      b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)), 0) AS hash,
             b.is_test OR (b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
                           AND report_row_rank(b.event_type, b.amount_micros, b.period_end_at) IS NOT NULL) AS counted
      FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id CROSS JOIN params p
      -- (the given subscriptions' rows by index, and their own rows of `subscription` only: the planner does not carry
      -- a list of keys across the join, and without the second condition it hashed the whole table)
      WHERE ($3 IS NULL OR b.subscription_id = ANY ($3)) AND ($3 IS NULL OR s.id = ANY ($3))) h
WHERE h.counted
GROUP BY h.subscription_id
$fn$;
COMMENT ON FUNCTION report_span_input(timestamptz, text, uuid[]) IS
    'Per subscription (the given ones; every one when $3 is NULL), the count and hash sum (per column) of what report_span reads of it; equal digests mean equal spans (migrations 0031, 0041, 0077).';

CREATE OR REPLACE FUNCTION report_span_input(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, row_count bigint, hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
SELECT * FROM report_span_input($1, $2, NULL)
$fn$;
COMMENT ON FUNCTION report_span_input(timestamptz, text) IS
    'report_span_input($1, $2, NULL): every subscription''s span digest (migrations 0031, 0041, 0077).';

CREATE OR REPLACE FUNCTION report_first_charge(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, account uuid, currency text, first_at timestamptz, month_net bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT p.*, date_trunc('month', p.as_of AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month_start
    FROM report_params($1, $1, $1, NULL, $2) p
)
-- Paid charges (amount > 0: purchase, renewal, recovery, restart, upgrade) and, in the as-of month, refunds and
-- chargebacks with an amount (their negative amounts), with a currency, effective by the as-of instant (under basis
-- 'known' also recorded by then), of subscriptions that are no test or sandbox purchase and have no test row. Every
-- subscription's: one grouping of the history's rows, joined to `subscription`.
SELECT f.subscription_id, s.provider::text, COALESCE(s.billing_account_id, s.id), f.currency_code, f.first_at, f.month_net
FROM (SELECT b.subscription_id, b.currency_code, min(b.effective_at) FILTER (WHERE b.event_type <> 'REFUNDED') AS first_at,
             sum(b.amount_micros) FILTER (WHERE b.effective_at >= p.month_start)::bigint AS month_net
      FROM billing_transaction b CROSS JOIN params p
      WHERE $3 IS NULL
        AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
             OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL
                 AND b.effective_at >= p.month_start))
        AND b.currency_code IS NOT NULL
        AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      GROUP BY b.subscription_id, b.currency_code) f
JOIN subscription s ON s.id = f.subscription_id
WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
UNION ALL
-- The given subscriptions' (a night's candidates): each one's row by its key and its rows by index.
SELECT s.id, s.provider::text, COALESCE(s.billing_account_id, s.id), f.currency_code, f.first_at, f.month_net
FROM subscription s
CROSS JOIN LATERAL (
    SELECT b.currency_code, min(b.effective_at) FILTER (WHERE b.event_type <> 'REFUNDED') AS first_at,
           sum(b.amount_micros) FILTER (WHERE b.effective_at >= p.month_start)::bigint AS month_net
    FROM billing_transaction b CROSS JOIN params p
    WHERE b.subscription_id = s.id
      AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
           OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL
               AND b.effective_at >= p.month_start))
      AND b.currency_code IS NOT NULL
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
    GROUP BY b.currency_code) f
WHERE s.id = ANY ($3) AND NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
$fn$;

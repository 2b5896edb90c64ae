-- Incremental build-reports (issue 31, round 4): two digests made exact or cheaper, their meaning unchanged otherwise
-- (Reports/README.md, "Incremental runs").
--   * `report_span_input` hashes each subscription's read rows per column (`hash_record_extended`, each type's own
--     hash function) instead of through their text (`hashtextextended(row::text)`): the same rows and columns, without
--     formatting 1.5M rows as text at 200k subscriptions (most of the digest's time). Every stored digest changes once
--     with this migration, so the first run after it recomputes and stores every span, as an empty store would.
--   * `report_month_history` hashes the subscription's provider (`subscription.provider`) instead of the row's
--     (`billing_transaction.provider`): `kpis` and `plan_change_mix` name a row's provider from its subscription, and
--     no constraint makes the two equal, so a subscription whose provider changed would have reused a stale month.
--     It reads the subscription row once per history row (a hash join of the subscriptions), in the same scan.
CREATE OR REPLACE FUNCTION report_span_input(as_of timestamptz, basis text)
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
      FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id CROSS JOIN params p) h
WHERE h.counted
GROUP BY h.subscription_id
$fn$;

COMMENT ON FUNCTION report_span_input(timestamptz, text) IS
    'Per subscription, the count and hash sum (per column) of what report_span reads of it; equal digests mean equal spans (migrations 0031, 0041).';

CREATE OR REPLACE FUNCTION report_month_history(as_of timestamptz, basis text)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE SET enable_sort = off AS $fn$
WITH per_month AS (
    SELECT h.month, count(h.hash) AS row_count, sum(h.hash) AS hash_sum,
           array_agg(h.subscription_id) FILTER (WHERE h.is_test) AS tested
    FROM (SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date AS month, b.subscription_id, b.is_test,
                 CASE WHEN b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
                      THEN hash_record_extended(ROW(b.subscription_id, s.provider, b.event_type, b.transaction_key,
                                                    b.effective_at, b.recorded_at, b.amount_micros, b.currency_code,
                                                    b.is_test, b.product_id, b.billing_period, b.period_end_at,
                                                    b.refunded_transaction_key, b.refund_kind), 0) END AS hash
          FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id) h
    GROUP BY h.month
),
excluded AS (
    SELECT s.id FROM subscription s WHERE s.is_test_purchase OR s.is_sandbox
    UNION
    SELECT t.id FROM per_month m CROSS JOIN LATERAL unnest(m.tested) AS t(id)
),
excluded_from AS (
    -- The month of each excluded subscription's first read row (by index), with its id's hash.
    SELECT (date_trunc('month', f.effective_at AT TIME ZONE 'UTC'))::date AS month, count(*) AS excluded_count,
           sum(hash_record_extended(ROW(x.id), 0)) AS excluded_hash_sum
    FROM excluded x
    CROSS JOIN LATERAL (SELECT b.effective_at FROM billing_transaction b
                        WHERE b.subscription_id = x.id AND b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
                        ORDER BY b.effective_at LIMIT 1) f
    GROUP BY 1
)
SELECT COALESCE(m.month, e.month), COALESCE(m.row_count, 0), COALESCE(m.hash_sum, 0),
       COALESCE(e.excluded_count, 0), COALESCE(e.excluded_hash_sum, 0)
FROM per_month m FULL JOIN excluded_from e ON e.month = m.month
$fn$;

COMMENT ON FUNCTION report_month_history(timestamptz, text) IS
    'Per month of effective_at, the count and hash sum of the history rows read as of $1 under basis $2 (with their subscription''s provider), and of the excluded (test, sandbox) subscriptions from their first read row''s month; report_month_inputs accumulates them (migrations 0040, 0041).';

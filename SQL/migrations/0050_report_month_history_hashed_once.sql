-- The month digest's history part hashes each row once (issue 31; Reports/README.md, "Incremental runs").
--
-- `report_month_history` (0040, 0041, 0043) counted the read rows as `count(h.hash)` and summed `sum(h.hash)` over a
-- subquery that PostgreSQL flattens into the aggregates, so each aggregate evaluated the hash expression itself: every
-- history row's record was built and hashed twice. The count now filters on the row's "is it read" flag, and only the
-- sum hashes. The same rows, the
-- same columns, the same hash: every month's part is unchanged, so every stored month stays reused (a test compares
-- the two definitions on a generated world). At 1M subscriptions (7.4M history rows) the function took 16.5–19.2 s
-- of one backend before and 11.8–12.0 s after, in psql, the same plan as the job's (Benchmarks/results.md, "The
-- month history hashed once").
CREATE OR REPLACE FUNCTION report_month_history(as_of timestamptz, basis text)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE SET enable_sort = off AS $fn$
WITH per_month AS (
    SELECT h.month, count(*) FILTER (WHERE h.is_read) AS row_count,
           sum(CASE WHEN h.is_read
                    THEN hash_record_extended(ROW(h.subscription_id, h.provider, h.billing_account_id, h.event_type,
                                                  h.transaction_key, h.effective_at, h.recorded_at, h.amount_micros,
                                                  h.currency_code, h.is_test, h.product_id, h.billing_period,
                                                  h.period_end_at, h.refunded_transaction_key, h.refund_kind), 0) END) AS hash_sum,
           array_agg(h.subscription_id) FILTER (WHERE h.is_test) AS tested
    FROM (SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date AS month, b.subscription_id, s.provider,
                 s.billing_account_id, b.event_type, b.transaction_key, b.effective_at, b.recorded_at, b.amount_micros,
                 b.currency_code, b.is_test, b.product_id, b.billing_period, b.period_end_at, b.refunded_transaction_key,
                 b.refund_kind, b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1) AS is_read
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
    'Per month of effective_at, the count and hash sum of the history rows read as of $1 under basis $2 (with their subscription''s provider and billing account), and of the excluded (test, sandbox) subscriptions from their first read row''s month; report_month_inputs accumulates them (migrations 0040, 0041, 0043; each row hashed once since 0050).';

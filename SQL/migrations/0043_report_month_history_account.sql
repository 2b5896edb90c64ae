-- Incremental build-reports (issue 31, round 5): the month digest's history part (`report_month_history`, 0040, 0041)
-- also hashes each read row's subscription's billing account, because `cohorts` now stores and reuses its months
-- (Reports/README.md, "Incremental runs") and names a customer by it (`COALESCE(billing_account_id, id)`, as the
-- bridge does). The contributions carry the account too, but only of subscriptions paying at a snapshot: a purchase
-- refunded within its month, then claimed by another account, moves no contribution, yet moves the cohorts' cells
-- (its money changes customer). Every stored month's digest changes once with this migration, so the first run after
-- it recomputes and stores every month anew. The subscription row is already joined for its provider (0041): one more
-- column in the same hash.
CREATE OR REPLACE FUNCTION report_month_history(as_of timestamptz, basis text)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE SET enable_sort = off AS $fn$
WITH per_month AS (
    SELECT h.month, count(h.hash) AS row_count, sum(h.hash) AS hash_sum,
           array_agg(h.subscription_id) FILTER (WHERE h.is_test) AS tested
    FROM (SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date AS month, b.subscription_id, b.is_test,
                 CASE WHEN b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
                      THEN hash_record_extended(ROW(b.subscription_id, s.provider, s.billing_account_id, b.event_type, b.transaction_key,
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
    'Per month of effective_at, the count and hash sum of the history rows read as of $1 under basis $2 (with their subscription''s provider and billing account), and of the excluded (test, sandbox) subscriptions from their first read row''s month; report_month_inputs accumulates them (migrations 0040, 0041, 0043).';

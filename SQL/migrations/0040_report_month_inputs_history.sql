-- Incremental build-reports (issue 31): the month digest of 0027/0030 also covers the history rows read up to the
-- month, so reports whose month's rows read the history directly — `kpis` (the paid and refunded rows effective in the
-- month) and `plan_change_mix` (the charges up to the month) — can store and reuse their complete months like the MRR
-- reports (Reports/README.md, "Incremental runs"). Two parts join 0030's cumulative digest:
--   * the history rows read under the run's as-of instant and basis, by the month of `effective_at` (UTC): per month
--     the count and 64-bit hash sum of the columns those two read (subscription, provider, event type, transaction
--     and refunded keys, effective and recorded instants, amount, currency, test flag, product, billing period, period
--     end, refund kind; a report reusing months that reads another column adds it here), cumulative up to the
--     snapshot's month. A late row effective in a closed month, an update or a
--     delete, and a row that becomes read as the as-of instant moves (or, under `known`, as its recording time falls
--     before it) change the digest of its month and every later one.
--   * who is excluded (a test purchase, a sandbox subscription, or any test row of the subscription, whenever
--     effective): per excluded subscription with a read row, its id's hash from the month of its first read row on.
--     A subscription becoming excluded (a test row arriving late) changes every month from its first row's: the
--     reports drop all its rows retroactively.
-- And the contribution and state rows are hashed per column (`hash_record_extended`, each type's own hash) instead of
-- through their text (`hashtextextended(row::text)`): the same rows and columns, without formatting 3M rows as text
-- (the digest was 20-odd seconds of a loaded 200k run, the text conversion most of it).
-- Every stored month's digest changes once with this migration, so the first run after it recomputes and stores anew.
-- The history is read in one scan of billing_transaction grouped by month (a hash of 25-odd groups: the function
-- plans without sorting, which PostgreSQL would choose from its estimate of a group per row).
CREATE FUNCTION report_month_history(as_of timestamptz, basis text)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE SET enable_sort = off AS $fn$
WITH per_month AS (
    SELECT h.month, count(h.hash) AS row_count, sum(h.hash) AS hash_sum,
           array_agg(h.subscription_id) FILTER (WHERE h.is_test) AS tested
    FROM (SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date AS month, b.subscription_id, b.is_test,
                 CASE WHEN b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
                      THEN hash_record_extended(ROW(b.subscription_id, b.provider, b.event_type, b.transaction_key,
                                                    b.effective_at, b.recorded_at, b.amount_micros, b.currency_code,
                                                    b.is_test, b.product_id, b.billing_period, b.period_end_at,
                                                    b.refunded_transaction_key, b.refund_kind), 0) END AS hash
          FROM billing_transaction b) h
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
    'Per month of effective_at, the count and hash sum of the history rows read as of $1 under basis $2, and of the excluded (test, sandbox) subscriptions from their first read row''s month; report_month_inputs accumulates them (migration 0040).';

CREATE OR REPLACE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (month text, inputs text)
LANGUAGE sql STABLE AS $fn$
WITH snapshot AS (
    SELECT s.n, s.month, s.month_start, s.at FROM report_run_snapshot($1, $2, $3, $4) s
),
contribution AS (
    SELECT c.n, count(*) AS row_count, sum(hash_record_extended(c, 0)) AS hash_sum
    FROM report_run_contribution($1, $2, $3, $4) c
    GROUP BY c.n
),
state AS (
    SELECT t.n, count(*) AS row_count, sum(hash_record_extended(t, 0)) AS hash_sum
    FROM report_run_subscriber_state($1, $2, $3, $4) t
    GROUP BY t.n
),
rate AS (
    SELECT f.month, count(*) AS row_count, sum(hashtextextended(f::text, 0)) AS hash_sum FROM fx_rate f GROUP BY f.month
),
plans AS (
    SELECT count(*) || ':' || COALESCE(sum(hashtextextended(p::text, 0)), 0) AS digest FROM plan p
),
history AS MATERIALIZED (
    SELECT * FROM report_month_history($1, $4)
)
SELECT s.month,
       md5(concat_ws('|', string_agg(s.at::text, ',') OVER w, sum(c.row_count) OVER w, sum(c.hash_sum) OVER w,
                     sum(t.row_count) OVER w, sum(t.hash_sum) OVER w,
                     (SELECT count(*) || ':' || COALESCE(sum(r.row_count), 0) || ':' || COALESCE(sum(r.hash_sum), 0)
                      FROM rate r WHERE r.month <= s.month_start),
                     (SELECT p.digest FROM plans p),
                     (SELECT sum(h.row_count) || ':' || sum(h.hash_sum) || ':' || sum(h.excluded_count) || ':' || sum(h.excluded_hash_sum)
                      FROM history h WHERE h.month <= s.month_start)))
FROM snapshot s LEFT JOIN contribution c ON c.n = s.n LEFT JOIN state t ON t.n = s.n
WINDOW w AS (ORDER BY s.n)
$fn$;

COMMENT ON FUNCTION report_month_inputs(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot month, a digest of everything the month-end reports read up to it (snapshots, contributions, subscriber states, fx_rate, plan, the history rows read by effective month and the excluded subscriptions); build-reports reuses stored rows while it is unchanged (migrations 0027, 0030, 0040).';

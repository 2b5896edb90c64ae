-- Incremental build-reports (issue 31): the month digest of 0027 also covers the subscriber states (0026), so the
-- reports that read them month by month (Reports/subscribers.sql) can store and reuse their complete months like the
-- MRR reports (Reports/README.md, "Incremental runs"). Per snapshot, the count and 64-bit hash sum of its
-- report_run_subscriber_state rows (every column) join the contributions' in the cumulative digest; the rest is 0027's.
-- Every stored month's digest changes once with this migration, so the first run after it recomputes and stores anew.
CREATE OR REPLACE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (month text, inputs text)
LANGUAGE sql STABLE AS $fn$
WITH snapshot AS (
    SELECT s.n, s.month, s.month_start, s.at FROM report_run_snapshot($1, $2, $3, $4) s
),
contribution AS (
    SELECT c.n, count(*) AS row_count, sum(hashtextextended(c::text, 0)) AS hash_sum
    FROM report_run_contribution($1, $2, $3, $4) c
    GROUP BY c.n
),
state AS (
    SELECT t.n, count(*) AS row_count, sum(hashtextextended(t::text, 0)) AS hash_sum
    FROM report_run_subscriber_state($1, $2, $3, $4) t
    GROUP BY t.n
),
rate AS (
    SELECT f.month, count(*) AS row_count, sum(hashtextextended(f::text, 0)) AS hash_sum FROM fx_rate f GROUP BY f.month
),
plans AS (
    SELECT count(*) || ':' || COALESCE(sum(hashtextextended(p::text, 0)), 0) AS digest FROM plan p
)
SELECT s.month,
       md5(concat_ws('|', string_agg(s.at::text, ',') OVER w, sum(c.row_count) OVER w, sum(c.hash_sum) OVER w,
                     sum(t.row_count) OVER w, sum(t.hash_sum) OVER w,
                     (SELECT count(*) || ':' || COALESCE(sum(r.row_count), 0) || ':' || COALESCE(sum(r.hash_sum), 0)
                      FROM rate r WHERE r.month <= s.month_start),
                     (SELECT p.digest FROM plans p)))
FROM snapshot s LEFT JOIN contribution c ON c.n = s.n LEFT JOIN state t ON t.n = s.n
WINDOW w AS (ORDER BY s.n)
$fn$;

COMMENT ON FUNCTION report_month_inputs(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot month, a digest of everything the month-end reports read up to it (snapshots, contributions, subscriber states, fx_rate, plan); build-reports reuses stored rows while it is unchanged (migrations 0027, 0030).';

-- Incremental build-reports (issue 31, round 5, h31w): the month digest (`report_month_inputs`, 0027/0030/0040) can
-- take its history part as a value, so build-reports computes `report_month_history` — one scan of
-- billing_transaction, none of the run's filled tables — in its second session, on the job's exported snapshot,
-- while the job's session fills the shared tables, and hands the rows to the job's session (Reports/README.md,
-- "Incremental runs" and "Two sessions, one snapshot"). The digest is the same text either way: the 4-argument form
-- passes `report_month_history`'s rows through the 5-argument one, and a jsonb number is a numeric, so the sums are
-- the same numbers, formatted the same (a month stored by an earlier run is reused).
CREATE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                    history jsonb)
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
    SELECT * FROM jsonb_to_recordset(COALESCE($5, '[]'))
        AS h(month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
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

COMMENT ON FUNCTION report_month_inputs(timestamptz, timestamptz, timestamptz, text, jsonb) IS
    'report_month_inputs with the history part given: $5 the rows of report_month_history($1, $4) as a jsonb array (build-reports computes them in its second session); migration 0042.';

CREATE OR REPLACE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (month text, inputs text)
LANGUAGE sql STABLE AS $fn$
SELECT * FROM report_month_inputs($1, $2, $3, $4, (SELECT jsonb_agg(h) FROM report_month_history($1, $4) h))
$fn$;

COMMENT ON FUNCTION report_month_inputs(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot month, a digest of everything the month-end reports read up to it (snapshots, contributions, subscriber states, fx_rate, plan, the history rows read by effective month and the excluded subscriptions); build-reports reuses stored rows while it is unchanged (migrations 0027, 0030, 0040; the history part given as a value since 0042).';

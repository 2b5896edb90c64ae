-- report_movement's window (0021) partitioned with bytewise text comparisons (issue 31; Reports/README.md, "Cost").
--
-- The window of the movement fill sorts every account value (one per billing account, provider, currency and snapshot:
-- 1.14M rows at 200k subscriptions) by its partition, which began with the text columns provider and currency. In a
-- database whose collation is not "C" (this one's is C.UTF-8) each such comparison goes through the locale's strcoll,
-- and PostgreSQL's abbreviated keys are off for it; for "C" it compares bytes. A partition only needs equality, and
-- every deterministic collation's equality is byte equality, so the partitions below are the same sets of rows as
-- 0021's (the uuid first, then provider and currency compared bytewise), each ordered by n as before: lag and lead
-- read the same neighbours, and the rows are unchanged. Only the order the function emits them in differs, which no
-- reader depends on (each report file orders its own output). The columns keep their collation: COLLATE appears
-- only in the window clause.
CREATE OR REPLACE FUNCTION report_movement(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE AS $fn$
WITH account_value AS (
    SELECT c.n, c.provider, c.billing_account_id, c.currency, sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c GROUP BY c.n, c.provider, c.billing_account_id, c.currency
),
paid_run AS (
    SELECT a.*, lag(a.n) OVER w AS prev_n, lag(a.v) OVER w AS prev_v, lead(a.n) OVER w AS next_n
    FROM account_value a
    WINDOW w AS (PARTITION BY a.billing_account_id, a.provider COLLATE "C", a.currency COLLATE "C" ORDER BY a.n)
)
SELECT r.n, r.provider, r.billing_account_id, r.currency,
       CASE WHEN r.prev_n = r.n - 1 THEN r.prev_v ELSE 0 END, r.v,
       CASE WHEN r.prev_n IS NULL THEN 'new' WHEN r.prev_n < r.n - 1 THEN 'reactivation'
            WHEN r.v > r.prev_v THEN 'expansion' WHEN r.v < r.prev_v THEN 'contraction' ELSE 'unchanged' END
FROM paid_run r
UNION ALL
SELECT r.n + 1, r.provider, r.billing_account_id, r.currency, r.v, 0, 'churn'
FROM paid_run r
WHERE (r.next_n IS NULL OR r.next_n > r.n + 1)
  AND r.n + 1 <= (SELECT max(s.n) FROM report_run_snapshot($1, $2, $3, $4) s)
$fn$;

COMMENT ON FUNCTION report_movement(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot n, each billing account''s MRR movement (p to v, twelfths of a micro); Reports/README.md "Movements"; partitions compared bytewise (migration 0032).';

-- report_movement (0021, 0032) grouped by sorting instead of hashing (issue 31; Reports/README.md, "Cost").
--
-- The movement fill groups the contributions into one value per billing account, provider, currency and snapshot, then
-- sorts those values by account, provider and currency (compared bytewise, 0032) and snapshot for its window. At 200k
-- subscriptions nearly every contribution is its own group (1,136,412 rows, 1,136,412 groups): PostgreSQL hashed them
-- (a 270 MB hash table, ≈ 5 s) and then sorted the groups anyway. Grouped by the window's own keys in the window's
-- order, one sort serves both: the contributions are sorted once, summed as they stream out of the sort, and the window
-- reads the sums in the order they arrive. PostgreSQL still estimates the hash cheaper, so the function runs with
-- hashed aggregation off (a SET on the function: it then runs as a function of its own rather than inlined into the
-- caller, which only build-reports' fill and a file run by hand call). The groups are the same sets (equality of the
-- bytewise-compared text is equality), each summed in bigint-exact numeric as before, so the rows are unchanged; the
-- provider and currency are returned in the database's collation, as the columns are.
CREATE OR REPLACE FUNCTION report_movement(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE SET enable_hashagg = off AS $fn$
WITH account_value AS (
    SELECT c.billing_account_id, c.provider COLLATE "C" AS provider, c.currency COLLATE "C" AS currency, c.n,
           sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c
    GROUP BY c.billing_account_id, c.provider COLLATE "C", c.currency COLLATE "C", c.n
),
paid_run AS (
    SELECT a.*, lag(a.n) OVER w AS prev_n, lag(a.v) OVER w AS prev_v, lead(a.n) OVER w AS next_n
    FROM account_value a
    WINDOW w AS (PARTITION BY a.billing_account_id, a.provider, a.currency ORDER BY a.n)
)
SELECT r.n, r.provider COLLATE "default", r.billing_account_id, r.currency COLLATE "default",
       CASE WHEN r.prev_n = r.n - 1 THEN r.prev_v ELSE 0 END, r.v,
       CASE WHEN r.prev_n IS NULL THEN 'new' WHEN r.prev_n < r.n - 1 THEN 'reactivation'
            WHEN r.v > r.prev_v THEN 'expansion' WHEN r.v < r.prev_v THEN 'contraction' ELSE 'unchanged' END
FROM paid_run r
UNION ALL
SELECT r.n + 1, r.provider COLLATE "default", r.billing_account_id, r.currency COLLATE "default", r.v, 0, 'churn'
FROM paid_run r
WHERE (r.next_n IS NULL OR r.next_n > r.n + 1)
  AND r.n + 1 <= (SELECT max(s.n) FROM report_run_snapshot($1, $2, $3, $4) s)
$fn$;

COMMENT ON FUNCTION report_movement(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot n, each billing account''s MRR movement (p to v, twelfths of a micro); Reports/README.md "Movements"; grouped and windowed in one sort, partitions compared bytewise (migration 0036).';

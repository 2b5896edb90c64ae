-- One snapshot's movements from the two account values they compare (issue 31; Reports/README.md, "Movements in a
-- night").
--
-- A night computes the movements of its last snapshot only. `report_movement(…, from_n)` (0049, 0052) windows the
-- account values of the snapshot before and of that one: at 1M subscriptions it sorts 723k account values by account,
-- groups them and windows them (2.6–2.8 s of the night's 3.5 s movement fill, on the job's chain). A snapshot's
-- movements need no window: each account's value there against its value at the snapshot before, one hash join of
-- the two snapshots' sums (1.9 s at 1M, the same rows). An account with no value at the snapshot before is `new` or
-- `reactivation` as the window decides it: reactivation when its spans show it paying at an earlier snapshot (0052's
-- lookup, asked only of those rows).
--
-- `report_movement_at(…, at_n)` returns the whole window's rows at snapshot `at_n` (`report_movement`'s rows there),
-- for any snapshot of the run, and nothing past the last one. build-reports calls it when a run computes one
-- snapshot's movements; over more snapshots it keeps the window, which sorts once for all of them.

CREATE FUNCTION report_movement_at(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                   at_n bigint)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE SET enable_sort = off SET enable_nestloop = off SET enable_mergejoin = off AS $fn$
WITH here AS (
    SELECT c.billing_account_id, c.provider, c.currency, sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n = $5
    GROUP BY c.billing_account_id, c.provider, c.currency
),
before AS (
    SELECT c.billing_account_id, c.provider, c.currency, sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n = $5 - 1
    GROUP BY c.billing_account_id, c.provider, c.currency
),
-- Each account's value here and before (NULL: none), a NULL currency compared as '' (a currency is three letters).
pair AS (
    SELECT COALESCE(h.billing_account_id, b.billing_account_id) AS billing_account_id,
           COALESCE(h.provider, b.provider) AS provider,
           CASE WHEN h.billing_account_id IS NULL THEN b.currency ELSE h.currency END AS currency,
           h.v, b.v AS before_v
    FROM here h
    FULL JOIN before b ON b.billing_account_id = h.billing_account_id AND b.provider = h.provider
                          AND COALESCE(b.currency, '') = COALESCE(h.currency, '')
),
-- The snapshots before the one before: a span covers one of them when that snapshot is at or after its start and
-- before its end (half-open, as the placements).
earlier AS (
    SELECT s.n, s.at FROM report_run_snapshot($1, $2, $3, $4) s WHERE s.n < $5 - 1
)
SELECT $5, r.provider, r.billing_account_id, r.currency, COALESCE(r.before_v, 0), COALESCE(r.v, 0),
       CASE WHEN r.v IS NULL THEN 'churn'
            WHEN r.before_v IS NOT NULL THEN
                CASE WHEN r.v > r.before_v THEN 'expansion' WHEN r.v < r.before_v THEN 'contraction' ELSE 'unchanged' END
            -- (asked per row of the spans of the account's subscriptions, by the stores' index; an unclaimed purchase
            -- is its own account)
            WHEN EXISTS (SELECT 1
                         FROM report_run_span($1, $2, $3, $4) sp
                         WHERE sp.subscription_id = ANY (ARRAY(SELECT s.id FROM subscription s
                                                               WHERE s.billing_account_id = r.billing_account_id)
                                                         || r.billing_account_id)
                           AND sp.state IS NULL AND sp.billing_account_id = r.billing_account_id
                           AND sp.provider = r.provider AND COALESCE(sp.currency, '') = COALESCE(r.currency, '')
                           AND EXISTS (SELECT 1 FROM earlier e
                                       WHERE e.at >= sp.from_at AND (sp.to_at IS NULL OR e.at < sp.to_at)))
                THEN 'reactivation'
            ELSE 'new' END
FROM pair r
WHERE $5 <= (SELECT max(s.n) FROM report_run_snapshot($1, $2, $3, $4) s)
$fn$;

COMMENT ON FUNCTION report_movement_at(timestamptz, timestamptz, timestamptz, text, bigint) IS
    'report_movement''s rows at snapshot $5 alone, from the account values there and at the snapshot before (hashed, not windowed); migration 0078.';

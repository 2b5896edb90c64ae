-- The movements of a night: only the snapshots its computed months read (issue 31; Reports/README.md, "Movements in
-- a night").
--
-- build-reports fills report_movement_run once per run, and the files that read it (mrr_bridge, mrr_movements, kpis,
-- cohorts) read only the snapshots of the months they compute and the one before. A night computes its last month,
-- yet the fill windowed every snapshot's contributions: one sort of every account's value at every snapshot (3.9 s of
-- a 24 s night at 200k subscriptions, and 1.9 s more to copy the rows to the late session). The five-argument form
-- returns the same rows as the four-argument one (0036) at the snapshots from `from_n` on, and none before: it windows
-- the account values from `from_n` - 1 on (the previous snapshot's value is the only one a movement at `from_n` reads)
-- and asks whether an account paid at any earlier snapshot (a `reactivation` rather than `new`, when its previous
-- paying snapshot is not the one before) only for the window's first rows, hashed, which the earlier contributions
-- are joined to. A churn at `from_n` or later comes from a paying snapshot at `from_n` - 1 or later, which the window
-- holds. With `from_n` NULL nothing is left out; a --full run and a file run by hand keep the four-argument form
-- (0036), whose plan this one's joins would only add to.
--
-- Joins are hashed (nested loops and merge joins off, as hashed aggregation is in 0036): otherwise PostgreSQL sorted
-- the earlier contributions for a merge with the window's first rows (2.4 s at 200k subscriptions, against 1.0 s).
CREATE FUNCTION report_movement(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                from_n bigint)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE SET enable_hashagg = off SET enable_nestloop = off SET enable_mergejoin = off AS $fn$
WITH account_value AS (
    SELECT c.billing_account_id, c.provider COLLATE "C" AS provider, c.currency COLLATE "C" AS currency, c.n,
           sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE $5 IS NULL OR c.n >= $5 - 1
    GROUP BY c.billing_account_id, c.provider COLLATE "C", c.currency COLLATE "C", c.n
),
paid_run AS (
    SELECT a.*, lag(a.n) OVER w AS prev_n, lag(a.v) OVER w AS prev_v, lead(a.n) OVER w AS next_n
    FROM account_value a
    WINDOW w AS (PARTITION BY a.billing_account_id, a.provider, a.currency ORDER BY a.n)
),
-- The window's first rows at from_n on (no previous paying snapshot in the window), and those of them whose account
-- paid before the window: the few first rows hashed and joined by the earlier contributions streaming past (nested
-- loops and merge joins are off: PostgreSQL estimates the contributions at a hundred times what they are when nothing
-- is filled yet, and a hash of the contributions instead spilled in 32 batches, 2.6 s at 200k subscriptions). The
-- account is never NULL (a subscription without one is its own, report_span); a NULL currency is compared as ''.
first_row AS (
    SELECT r.billing_account_id, r.provider, COALESCE(r.currency, '') COLLATE "C" AS currency
    FROM paid_run r
    WHERE $5 IS NOT NULL AND r.prev_n IS NULL AND r.n >= $5
),
paid_before AS (
    SELECT DISTINCT f.billing_account_id, f.provider, f.currency
    FROM first_row f
    JOIN report_run_contribution($1, $2, $3, $4) c
      ON c.billing_account_id = f.billing_account_id AND c.provider COLLATE "C" = f.provider
         AND COALESCE(c.currency, '') COLLATE "C" = f.currency
    WHERE c.n < $5 - 1
),
-- The window's rows at from_n on, each first one marked when its account paid before the window (a reactivation).
moved AS (
    SELECT r.*, e.billing_account_id IS NOT NULL AS paid_before
    FROM paid_run r
    LEFT JOIN paid_before e ON r.prev_n IS NULL AND e.billing_account_id = r.billing_account_id
                               AND e.provider = r.provider AND e.currency = COALESCE(r.currency, '') COLLATE "C"
    WHERE $5 IS NULL OR r.n >= $5
)
SELECT r.n, r.provider COLLATE "default", r.billing_account_id, r.currency COLLATE "default",
       CASE WHEN r.prev_n = r.n - 1 THEN r.prev_v ELSE 0 END, r.v,
       CASE WHEN r.prev_n IS NULL AND NOT r.paid_before THEN 'new'
            WHEN r.prev_n IS NULL OR r.prev_n < r.n - 1 THEN 'reactivation'
            WHEN r.v > r.prev_v THEN 'expansion' WHEN r.v < r.prev_v THEN 'contraction' ELSE 'unchanged' END
FROM moved r
UNION ALL
SELECT r.n + 1, r.provider COLLATE "default", r.billing_account_id, r.currency COLLATE "default", r.v, 0, 'churn'
FROM paid_run r
WHERE (r.next_n IS NULL OR r.next_n > r.n + 1)
  AND r.n + 1 <= (SELECT max(s.n) FROM report_run_snapshot($1, $2, $3, $4) s)
$fn$;

COMMENT ON FUNCTION report_movement(timestamptz, timestamptz, timestamptz, text, bigint) IS
    'report_movement''s rows at the snapshots from $5 on (all when $5 is NULL): the window over the account values from $5 - 1, whether an account paid earlier from the earlier contributions; migration 0049.';

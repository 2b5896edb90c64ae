-- One snapshot's movements in one pass (issue 31; Reports/README.md, "One snapshot's movements, hashed").
--
-- `report_movement_at` (0078, 0079) grouped the contributions of its snapshot and of the one before apart and joined
-- the two groupings (a full join by account, provider and currency): two reads of the run's contributions and a join
-- of 365,000 account values at 1M subscriptions. Each account's two values are now summed in one grouping of both
-- snapshots' contributions, each value a filtered sum (NULL where the account has no contribution at that snapshot,
-- as the join left it). The same rows: the grouping takes a NULL currency as one group, as the join compared it
-- (a currency is three letters, so '' was never one), and the classification reads the two values as before.

CREATE OR REPLACE FUNCTION report_movement_at(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                   at_n bigint, accounts uuid[])
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE SET enable_sort = off SET enable_nestloop = off SET enable_mergejoin = off AS $fn$
WITH pair AS (
    SELECT c.billing_account_id, c.provider, c.currency,
           sum(c.twelfths) FILTER (WHERE c.n = $5) AS v, sum(c.twelfths) FILTER (WHERE c.n = $5 - 1) AS before_v
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n IN ($5 - 1, $5) AND ($6 IS NULL OR c.billing_account_id IN (SELECT unnest($6)))
    GROUP BY c.billing_account_id, c.provider, c.currency
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

COMMENT ON FUNCTION report_movement_at(timestamptz, timestamptz, timestamptz, text, bigint, uuid[]) IS
    'report_movement''s rows at snapshot $5 alone, of the accounts $6 (NULL: all), from the account values there and at the snapshot before, summed in one grouping; migrations 0078, 0079, 0080.';

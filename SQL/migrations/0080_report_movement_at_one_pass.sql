-- One snapshot's movements in one pass, and the night's recomputed accounts kept apart (issue 31; Reports/README.md,
-- "One snapshot's movements in one pass", "The open month's movements from the night before").
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

-- The accounts a night recomputes (0079) found apart, in the run's temporary `report_movement_affected`, so the store is
-- patched with their rows alone (the rows of the other accounts are the stored ones: deleting and copying all 389,000
-- again cost the storing session about a second at 1M subscriptions and left as many dead rows for the next night to
-- read past). `report_movement_affected(…, at_n, since)` is 0079's set; `report_movement_since(…, at_n)` reads it.
CREATE TABLE report_movement_affected (billing_account_id uuid,
                                       CONSTRAINT report_movement_affected_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_movement_affected IS 'Always empty: shadowed by build-reports'' temporary table of a night''s recomputed accounts (migration 0080).';

CREATE FUNCTION report_movement_affected(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                         at_n bigint, since timestamptz)
RETURNS SETOF report_movement_affected
LANGUAGE sql STABLE AS $fn$
WITH last_snapshot AS (
    SELECT s.at FROM report_run_snapshot($1, $2, $3, $4) s WHERE s.n = $5
)
SELECT d.billing_account_id FROM report_span_difference d
UNION
SELECT o.billing_account_id
FROM report_stored_span_open o CROSS JOIN last_snapshot l
WHERE o.basis = $4 AND o.state IS NULL
  AND ((o.from_at >= $6 AND o.from_at <= l.at) OR (o.to_at >= $6 AND o.to_at <= l.at))
$fn$;

COMMENT ON FUNCTION report_movement_affected(timestamptz, timestamptz, timestamptz, text, bigint, timestamptz) IS
    'The accounts whose movement rows at snapshot $5 may differ from those a run with its last snapshot at $6 stored (0079''s rule); migration 0080.';

DROP FUNCTION report_movement_since(timestamptz, timestamptz, timestamptz, text, bigint, timestamptz);

-- (hash joins only, as report_movement_at: the stored rows' partition has no statistics until autovacuum first
-- analyses it, and a nested loop against the recomputed accounts then took 11 s at 200k subscriptions)
CREATE FUNCTION report_movement_since(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                      at_n bigint)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE SET enable_nestloop = off SET enable_mergejoin = off AS $fn$
SELECT m.n, m.provider, m.billing_account_id, m.currency, m.p, m.v, m.movement
FROM report_stored_movement m
WHERE m.basis = $4 AND m.n = $5
  AND NOT EXISTS (SELECT 1 FROM report_movement_affected a WHERE a.billing_account_id = m.billing_account_id)
UNION ALL
SELECT * FROM report_movement_at($1, $2, $3, $4, $5,
                                 (SELECT COALESCE(array_agg(a.billing_account_id), '{}') FROM report_movement_affected a))
$fn$;

COMMENT ON FUNCTION report_movement_since(timestamptz, timestamptz, timestamptz, text, bigint) IS
    'A night''s movements at snapshot $5: the stored ones of the accounts not in the run''s report_movement_affected, and those recomputed; migrations 0079, 0080.';

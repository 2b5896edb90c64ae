-- A night's correction of the stored snapshot parts reads the touched subscriptions' spans by index (issue 31;
-- Reports/README.md, "Stored snapshot parts").
--
-- `report_snapshot_part_change` (0052) selected the touched subscriptions' spans with `subscription_id = ANY($5)`: the
-- recomputed ones through `report_run_span` (in a night a view: the stored spans less the touched subscriptions', and
-- the recomputed ones) and the stored ones from `report_stored_span`. With the 16,000 subscriptions a night touches at
-- 1M subscriptions, PostgreSQL estimated a fifth of the spans they have and scanned the whole store for each side
-- (12.4M spans, 1.7 GB, twice: 3.3 s of the 4.5 s the correction took). Now each touched subscription's spans are
-- read by its index, one subscription at a time (a LATERAL subquery kept apart by OFFSET 0, so it is not flattened
-- into a join the planner could turn back into the scans). The rows and their sums are the same.
CREATE OR REPLACE FUNCTION report_snapshot_part_change(as_of timestamptz, first_month timestamptz, last_month timestamptz,
                                                       basis text, subscriptions uuid[], until_n bigint)
RETURNS TABLE (n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint,
               state_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
touched AS (
    SELECT DISTINCT u.id FROM unnest($5) AS u(id)
),
changed AS (
    SELECT 1 AS sign, sp.subscription_id, sp.provider, sp.billing_account_id, sp.state, sp.from_at, sp.to_at,
           sp.currency, sp.country, sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
    FROM touched t
    CROSS JOIN LATERAL (SELECT r.* FROM report_run_span($1, $2, $3, $4) r WHERE r.subscription_id = t.id OFFSET 0) sp
    UNION ALL
    SELECT -1, s.subscription_id, s.provider, s.billing_account_id, s.state, s.from_at, s.to_at, s.currency, s.country,
           s.product_id, s.plan_id, s.billing_period, s.twelfths
    FROM touched t
    CROSS JOIN LATERAL (SELECT r.* FROM report_stored_span r WHERE r.basis = $4 AND r.subscription_id = t.id OFFSET 0) s
),
placed AS (
    SELECT c.*,
           width_bucket(c.from_at - interval '1 microsecond', i.ats) + 1 AS first_n,
           least(COALESCE(width_bucket(c.to_at - interval '1 microsecond', i.ats), i.last_n), $6 - 1) AS last_n
    FROM changed c CROSS JOIN snapshot_instants i
),
row_hash AS (
    SELECT r.n, r.sign, r.state IS NULL AS contribution,
           CASE WHEN r.state IS NULL
                THEN hash_record_extended(ROW(r.n, r.provider, r.billing_account_id, r.subscription_id, r.currency,
                                              r.country, r.product_id, r.plan_id, r.billing_period, r.twelfths), 0)
                ELSE hash_record_extended(ROW(r.n, r.provider, r.subscription_id, r.product_id, r.state), 0) END AS hash
    FROM (SELECT generate_series(pl.first_n, pl.last_n)::bigint AS n, pl.* FROM placed pl WHERE pl.last_n >= pl.first_n) r
)
SELECT h.n,
       COALESCE(sum(h.sign) FILTER (WHERE h.contribution), 0)::bigint,
       COALESCE(sum(h.sign * h.hash::numeric) FILTER (WHERE h.contribution), 0),
       COALESCE(sum(h.sign) FILTER (WHERE NOT h.contribution), 0)::bigint,
       COALESCE(sum(h.sign * h.hash::numeric) FILTER (WHERE NOT h.contribution), 0)
FROM row_hash h
GROUP BY h.n
$fn$;

COMMENT ON FUNCTION report_snapshot_part_change(timestamptz, timestamptz, timestamptz, text, uuid[], bigint) IS
    'Per snapshot before $6, what the recomputed spans of $5 add to the stored parts and their stored spans take away, each subscription''s spans read by index; migrations 0052, 0061.';

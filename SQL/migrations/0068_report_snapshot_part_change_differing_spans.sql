-- A night's correction of the stored snapshot parts places only the spans that differ, and reads the recomputed
-- ones where they are (issue 31; Reports/README.md, "Stored snapshot parts").
--
-- `report_snapshot_part_change` (0052, 0061) placed every span of each touched subscription twice, its recomputed
-- ones added and its stored ones taken away, and hashed each placed row: at 1M subscriptions a night touches 16,000
-- subscriptions with 694,000 spans between the two sides, placed into 455,000 rows. Most of them are the same on
-- both sides (a renewal adds one span and ends another; the subscription's earlier spans are unchanged), and an
-- identical span adds and takes away the same rows. Now the two sides are counted per distinct span first (+1 for
-- each recomputed one, -1 for each stored one) and only the spans whose count is not zero are placed, each row's
-- hash weighted by that count: the same sums (a placed row's hash is a function of the span and the snapshot), from
-- a few percent of the rows (620 spans in that night).
--
-- The recomputed side was read through `report_run_span`, a night's view of the store less the touched subscriptions
-- and the recomputed spans: per touched subscription two index scans of the store whose rows the view then drops
-- (1.1 s of the 1.4 s that side took). A night's recomputed spans are its temporary `report_span_recomputed`
-- (`StoredSpans`, the spans of exactly the touched subscriptions, which the view's last part reads), so the function
-- reads that table by index; `report_span_recomputed` is its always-empty placeholder, like `report_span_run`'s, so
-- the function is defined outside a run too (and then finds no recomputed span).
CREATE TABLE report_span_recomputed (LIKE report_span_run INCLUDING CONSTRAINTS);
COMMENT ON TABLE report_span_recomputed IS 'Always empty: shadowed by build-reports'' temporary table of a night''s recomputed spans (migration 0068).';

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
side AS (
    SELECT 1 AS sign, sp.subscription_id, sp.provider, sp.billing_account_id, sp.state, sp.from_at, sp.to_at,
           sp.currency, sp.country, sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
    FROM touched t
    CROSS JOIN LATERAL (SELECT r.* FROM report_span_recomputed r WHERE r.subscription_id = t.id OFFSET 0) sp
    UNION ALL
    SELECT -1, s.subscription_id, s.provider, s.billing_account_id, s.state, s.from_at, s.to_at, s.currency, s.country,
           s.product_id, s.plan_id, s.billing_period, s.twelfths
    FROM touched t
    CROSS JOIN LATERAL (SELECT r.* FROM report_stored_span r WHERE r.basis = $4 AND r.subscription_id = t.id OFFSET 0) s
),
-- Each distinct span with its count over the two sides; a span on both sides as often cancels out (NULLs group
-- together, as they place and hash alike).
changed AS (
    SELECT sum(d.sign) AS sign, d.subscription_id, d.provider, d.billing_account_id, d.state, d.from_at, d.to_at,
           d.currency, d.country, d.product_id, d.plan_id, d.billing_period, d.twelfths
    FROM side d
    GROUP BY d.subscription_id, d.provider, d.billing_account_id, d.state, d.from_at, d.to_at, d.currency, d.country,
             d.product_id, d.plan_id, d.billing_period, d.twelfths
    HAVING sum(d.sign) <> 0
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
    'Per snapshot before $6, what the recomputed spans of $5 (a night''s report_span_recomputed) add to the stored parts and their stored spans take away: only the spans whose count differs between the two sides placed; migrations 0052, 0061, 0068.';

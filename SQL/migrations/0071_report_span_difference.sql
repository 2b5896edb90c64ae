-- A night's recomputed spans against the stored ones, counted once and used twice: for the correction of the stored
-- snapshot parts and for storing (issue 31; Reports/README.md, "Storing only the spans that differ").
--
-- `report_snapshot_part_change` (0052, 0061, 0068) grouped the two sides of every touched subscription (its recomputed
-- spans +1, its stored spans -1) per distinct span and placed those whose count is not zero. Storing the night then
-- deleted every stored span of those subscriptions and inserted every recomputed one again: at 1M subscriptions 16,000
-- subscriptions, 347,000 spans each way, in the store and in its open spans (1.5 s, after the files), although most
-- are the same on both sides (a renewal at the same price changes one span's end; the earlier ones stay as they are).
--
-- Now the grouping is its own function, `report_span_difference(basis, subscriptions)`: per distinct span of the given
-- subscriptions on either side, how many times it is stored and how many times it was recomputed, for those where the
-- two differ. build-reports keeps its rows in the run's temporary `report_span_difference` (this table is its
-- always-empty placeholder, so the functions below are defined outside a run too), the correction of the parts places
-- them (`report_snapshot_part_difference`, the placement and hashing of 0068 unchanged), and storing the night deletes
-- and inserts only them (Reports/README.md, "Storing only the spans that differ").
CREATE TABLE report_span_difference (stored bigint NOT NULL, recomputed bigint NOT NULL,
                                     LIKE report_span_run INCLUDING CONSTRAINTS);
COMMENT ON TABLE report_span_difference IS 'Always empty: shadowed by build-reports'' temporary table of a night''s differing spans (migration 0071).';

CREATE FUNCTION report_span_difference(basis text, subscriptions uuid[])
RETURNS SETOF report_span_difference
LANGUAGE sql STABLE AS $fn$
WITH touched AS (
    SELECT DISTINCT u.id FROM unnest($2) AS u(id)
),
side AS (
    SELECT 1 AS recomputed, sp.subscription_id, sp.provider, sp.billing_account_id, sp.state, sp.from_at, sp.to_at,
           sp.currency, sp.country, sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
    FROM touched t
    CROSS JOIN LATERAL (SELECT r.* FROM report_span_recomputed r WHERE r.subscription_id = t.id OFFSET 0) sp
    UNION ALL
    SELECT 0, s.subscription_id, s.provider, s.billing_account_id, s.state, s.from_at, s.to_at, s.currency, s.country,
           s.product_id, s.plan_id, s.billing_period, s.twelfths
    FROM touched t
    CROSS JOIN LATERAL (SELECT r.* FROM report_stored_span r WHERE r.basis = $1 AND r.subscription_id = t.id OFFSET 0) s
)
-- Each distinct span with its count on each side (NULLs group together, as they place, hash and compare alike).
SELECT count(*) FILTER (WHERE d.recomputed = 0), count(*) FILTER (WHERE d.recomputed = 1),
       d.subscription_id, d.provider, d.billing_account_id, d.state, d.from_at, d.to_at, d.currency, d.country,
       d.product_id, d.plan_id, d.billing_period, d.twelfths
FROM side d
GROUP BY d.subscription_id, d.provider, d.billing_account_id, d.state, d.from_at, d.to_at, d.currency, d.country,
         d.product_id, d.plan_id, d.billing_period, d.twelfths
HAVING count(*) FILTER (WHERE d.recomputed = 0) <> count(*) FILTER (WHERE d.recomputed = 1)
$fn$;

COMMENT ON FUNCTION report_span_difference(text, uuid[]) IS
    'Per distinct span of the subscriptions $2 (stored for basis $1, or in the run''s report_span_recomputed): how often it is stored and how often recomputed, where the two differ; migration 0071.';

DROP FUNCTION report_snapshot_part_change(timestamptz, timestamptz, timestamptz, text, uuid[], bigint);

CREATE FUNCTION report_snapshot_part_difference(as_of timestamptz, first_month timestamptz, last_month timestamptz,
                                                basis text, until_n bigint)
RETURNS TABLE (n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint,
               state_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
placed AS (
    SELECT c.recomputed - c.stored AS sign, c.*,
           width_bucket(c.from_at - interval '1 microsecond', i.ats) + 1 AS first_n,
           least(COALESCE(width_bucket(c.to_at - interval '1 microsecond', i.ats), i.last_n), $5 - 1) AS last_n
    FROM report_span_difference c CROSS JOIN snapshot_instants i
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

COMMENT ON FUNCTION report_snapshot_part_difference(timestamptz, timestamptz, timestamptz, text, bigint) IS
    'Per snapshot before $5, what the run''s differing spans (report_span_difference: recomputed less stored) add to the stored parts; migrations 0052, 0061, 0068, 0071.';

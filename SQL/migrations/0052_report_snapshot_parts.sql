-- A night places only the months it computes (issue 31; Reports/README.md, "Stored snapshot parts").
--
-- The month digest (`report_month_inputs`, 0027/0030/0040/0042) is cumulative: month m's digest sums, per snapshot up
-- to m, the count and 64-bit hash sum of the contribution rows and of the subscriber-state rows placed there, so a
-- night placed every span on every snapshot (at 1M subscriptions 30 s of a 100 s night) to reuse 23 months of 24.
-- Those per-snapshot parts are sums over spans, and a night knows which subscriptions' spans changed (their span
-- digest, 0031): so a complete month's parts are stored with the spans they were placed from
-- (`report_stored_snapshot_part`, written in the transaction that stores the spans), and a night takes them from the
-- store and corrects them by the touched subscriptions alone — subtracting the rows of their stored (old) spans and
-- adding those of their recomputed ones (`report_snapshot_part_change`) — instead of placing every span. The
-- snapshots without a stored part (the open month's, a month that just closed) are placed and hashed as before
-- (`report_snapshot_part`). A part is used only while the store is the one it was computed from: `generation`
-- counts the stores of a basis's spans, and a part written by a run whose store was meanwhile changed by another run
-- is not written at all (build-reports, `StoredSpans.save`).
--
-- The contribution and state placements get a range of snapshot instants (from, inclusive, until, exclusive; NULL is
-- unbounded), so a night places the snapshots its computed months read — from the
-- first computed month's previous one on — and leaves the others out. The one relation that read an earlier snapshot,
-- a night's movement fill (`new` against `reactivation`: did the account pay before the window?), now asks the
-- account's spans by arithmetic rather than the earlier contributions.

ALTER TABLE report_stored_span_set ADD COLUMN generation bigint NOT NULL DEFAULT 0;
COMMENT ON COLUMN report_stored_span_set.generation IS
    'build-reports: counts the stores of the basis''s spans; a stored snapshot part is used only when written with the current one (migration 0052).';

-- Per basis and complete snapshot (n, at), the count and hash sum of the contribution rows and of the subscriber-state
-- rows placed there from the stored spans; UNLOGGED like the other stores (a cache: losing it costs one full placement).
CREATE UNLOGGED TABLE report_stored_snapshot_part (
    basis                 text NOT NULL CHECK (basis IN ('corrected', 'known')),
    n                     bigint NOT NULL,
    at                    timestamptz NOT NULL,
    generation            bigint NOT NULL,
    contribution_count    bigint NOT NULL,
    contribution_hash_sum numeric NOT NULL,
    state_count           bigint NOT NULL,
    state_hash_sum        numeric NOT NULL,
    PRIMARY KEY (basis, n)
);
COMMENT ON TABLE report_stored_snapshot_part IS
    'build-reports: per basis and complete snapshot, the count and hash sum of the contribution and subscriber-state rows placed from the stored spans (migration 0052).';

-- The contributions placed only on the snapshots at or after `placed_from` and before `placed_until` (NULL:
-- unbounded); 0031's rows there. A span reaches such a snapshot only if it ends after `placed_from` and starts before
-- `placed_until`, which is checked first, on the spans as they are read (the bounds are parameters, so the check is
-- pushed into the scan): a night places the last two or three of 25 snapshots, and most spans end before them.
CREATE FUNCTION report_contribution(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                    placed_from timestamptz, placed_until timestamptz)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, subscription_id uuid, currency text, country text,
               product_id text, plan_id uuid, billing_period text, twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
placed AS (
    SELECT sp.*,
           greatest(width_bucket(sp.from_at - interval '1 microsecond', i.ats),
                    COALESCE(width_bucket($5 - interval '1 microsecond', i.ats), 0)) + 1 AS first_n,
           least(COALESCE(width_bucket(sp.to_at - interval '1 microsecond', i.ats), i.last_n),
                 COALESCE(width_bucket($6 - interval '1 microsecond', i.ats), i.last_n)) AS last_n
    FROM report_run_span($1, $2, $3, $4) sp CROSS JOIN snapshot_instants i
    WHERE sp.state IS NULL
      AND ($5 IS NULL OR sp.to_at IS NULL OR sp.to_at > $5) AND ($6 IS NULL OR sp.from_at < $6)
)
SELECT generate_series(pl.first_n, pl.last_n)::bigint AS n, pl.provider, pl.billing_account_id, pl.subscription_id,
       pl.currency, pl.country, pl.product_id, pl.plan_id, pl.billing_period, pl.twelfths
FROM placed pl
WHERE pl.last_n >= pl.first_n
$fn$;

COMMENT ON FUNCTION report_contribution(timestamptz, timestamptz, timestamptz, text, timestamptz, timestamptz) IS
    'report_contribution''s rows at the snapshots from $5 (inclusive) to $6 (exclusive) only (NULL: unbounded); migration 0052.';

-- The subscriber states placed likewise.
CREATE FUNCTION report_subscriber_state(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                        placed_from timestamptz, placed_until timestamptz)
RETURNS TABLE (n bigint, provider text, subscription_id uuid, product_id text, state text)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
placed AS (
    SELECT sp.*,
           greatest(width_bucket(sp.from_at - interval '1 microsecond', i.ats),
                    COALESCE(width_bucket($5 - interval '1 microsecond', i.ats), 0)) + 1 AS first_n,
           least(COALESCE(width_bucket(sp.to_at - interval '1 microsecond', i.ats), i.last_n),
                 COALESCE(width_bucket($6 - interval '1 microsecond', i.ats), i.last_n)) AS last_n
    FROM report_run_span($1, $2, $3, $4) sp CROSS JOIN snapshot_instants i
    WHERE sp.state IS NOT NULL
      AND ($5 IS NULL OR sp.to_at IS NULL OR sp.to_at > $5) AND ($6 IS NULL OR sp.from_at < $6)
)
SELECT generate_series(pl.first_n, pl.last_n)::bigint AS n, pl.provider, pl.subscription_id, pl.product_id, pl.state
FROM placed pl
WHERE pl.last_n >= pl.first_n
$fn$;

COMMENT ON FUNCTION report_subscriber_state(timestamptz, timestamptz, timestamptz, text, timestamptz, timestamptz) IS
    'report_subscriber_state''s rows at the snapshots from $5 (inclusive) to $6 (exclusive) only (NULL: unbounded); migration 0052.';

-- Per snapshot from from_n on, the parts of the month digest from the run's placed rows: the count and hash sum of
-- its contribution rows and of its subscriber-state rows (each row hashed whole, per column: hash_record_extended, as
-- 0041). A snapshot with neither has no row.
CREATE FUNCTION report_snapshot_part(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                     from_n bigint)
RETURNS TABLE (n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint,
               state_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH contribution AS (
    SELECT c.n, count(*) AS row_count, sum(hash_record_extended(c, 0)) AS hash_sum
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n >= COALESCE($5, 1)
    GROUP BY c.n
),
state AS (
    SELECT t.n, count(*) AS row_count, sum(hash_record_extended(t, 0)) AS hash_sum
    FROM report_run_subscriber_state($1, $2, $3, $4) t
    WHERE t.n >= COALESCE($5, 1)
    GROUP BY t.n
)
SELECT COALESCE(c.n, t.n), COALESCE(c.row_count, 0), COALESCE(c.hash_sum, 0), COALESCE(t.row_count, 0),
       COALESCE(t.hash_sum, 0)
FROM contribution c FULL JOIN state t ON t.n = c.n
$fn$;

COMMENT ON FUNCTION report_snapshot_part(timestamptz, timestamptz, timestamptz, text, bigint) IS
    'Per snapshot from $5 on, the count and hash sum of the run''s contribution and subscriber-state rows there (the month digest''s parts); migration 0052.';

-- What the rows of `subscriptions` change in the parts of the snapshots before until_n: their recomputed spans (the
-- run's, report_run_span) placed and hashed as report_snapshot_part hashes the placed rows, less their stored spans
-- (report_stored_span of the basis) placed and hashed alike. Added to the stored parts, the parts of the run's spans.
CREATE FUNCTION report_snapshot_part_change(as_of timestamptz, first_month timestamptz, last_month timestamptz,
                                            basis text, subscriptions uuid[], until_n bigint)
RETURNS TABLE (n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint,
               state_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
changed AS (
    SELECT 1 AS sign, sp.subscription_id, sp.provider, sp.billing_account_id, sp.state, sp.from_at, sp.to_at,
           sp.currency, sp.country, sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
    FROM report_run_span($1, $2, $3, $4) sp
    WHERE sp.subscription_id = ANY ($5)
    UNION ALL
    SELECT -1, s.subscription_id, s.provider, s.billing_account_id, s.state, s.from_at, s.to_at, s.currency, s.country,
           s.product_id, s.plan_id, s.billing_period, s.twelfths
    FROM report_stored_span s
    WHERE s.basis = $4 AND s.subscription_id = ANY ($5)
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
    'Per snapshot before $6, what the recomputed spans of $5 add to the stored parts and their stored spans take away; migration 0052.';

-- The month digest with its contribution and state parts given (`parts`: rows of report_snapshot_part as a jsonb
-- array, a snapshot with no rows left out or given as zeros). The five-argument form passes the run's placed parts
-- through it, so both are one definition and every stored month stays reused (a jsonb number is a numeric: the same
-- sums, formatted the same).
CREATE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                    history jsonb, parts jsonb)
RETURNS TABLE (month text, inputs text)
LANGUAGE sql STABLE AS $fn$
WITH snapshot AS (
    SELECT s.n, s.month, s.month_start, s.at FROM report_run_snapshot($1, $2, $3, $4) s
),
part AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset(COALESCE($6, '[]'))
        AS p(n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint, state_hash_sum numeric)
),
contribution AS (
    SELECT p.n, p.contribution_count AS row_count, p.contribution_hash_sum AS hash_sum FROM part p WHERE p.contribution_count > 0
),
state AS (
    SELECT p.n, p.state_count AS row_count, p.state_hash_sum AS hash_sum FROM part p WHERE p.state_count > 0
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

COMMENT ON FUNCTION report_month_inputs(timestamptz, timestamptz, timestamptz, text, jsonb, jsonb) IS
    'report_month_inputs with the history part ($5, 0042) and the contribution and state parts ($6: report_snapshot_part rows) given; migration 0052.';

CREATE OR REPLACE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                               history jsonb)
RETURNS TABLE (month text, inputs text)
LANGUAGE sql STABLE AS $fn$
SELECT * FROM report_month_inputs($1, $2, $3, $4, $5, (SELECT jsonb_agg(p) FROM report_snapshot_part($1, $2, $3, $4, NULL) p))
$fn$;

-- A night's movements (0049): whether an account of the window's first rows paid before the window is asked of its
-- spans (the run's, report_run_span: a contribution span of the account, provider and currency covering a snapshot
-- before from_n - 1), not of the earlier contributions, which a night no longer places. The account's subscriptions
-- are found by the subscription's billing account (an unclaimed purchase is its own account), their spans by the
-- store's index. Otherwise 0049's rows.
CREATE OR REPLACE FUNCTION report_movement(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
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
-- The window's first rows at from_n on (no previous paying snapshot in the window), each with its account's
-- subscriptions (by the subscription's billing account; an unclaimed purchase is its own account). The account is
-- never NULL (a subscription without one is its own, report_span); a NULL currency is compared as ''.
first_row AS (
    SELECT r.billing_account_id, r.provider, COALESCE(r.currency, '') COLLATE "C" AS currency,
           ARRAY(SELECT s.id FROM subscription s WHERE s.billing_account_id = r.billing_account_id) || r.billing_account_id
               AS subscriptions
    FROM paid_run r
    WHERE $5 IS NOT NULL AND r.prev_n IS NULL AND r.n >= $5
),
-- The snapshots before the window's previous one: a span covers one of them when that snapshot is at or after its
-- start and before its end (half-open, as the placements).
earlier AS (
    SELECT s.n, s.at FROM report_run_snapshot($1, $2, $3, $4) s WHERE s.n < $5 - 1
),
-- Those of them whose account paid before the window: asked per row of the spans of the account's subscriptions (a
-- scalar subquery, so it stays a lookup by the stores' index per row rather than a join over every span).
paid_before AS (
    SELECT f.billing_account_id, f.provider, f.currency
    FROM first_row f
    WHERE (SELECT true
           FROM report_run_span($1, $2, $3, $4) sp
           WHERE sp.subscription_id = ANY (f.subscriptions)
             AND sp.state IS NULL AND sp.billing_account_id = f.billing_account_id AND sp.provider COLLATE "C" = f.provider
             AND COALESCE(sp.currency, '') COLLATE "C" = f.currency
             AND EXISTS (SELECT 1 FROM earlier e WHERE e.at >= sp.from_at AND (sp.to_at IS NULL OR e.at < sp.to_at))
           LIMIT 1)
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
    'report_movement''s rows at the snapshots from $5 on (all when $5 is NULL): the window over the account values from $5 - 1, whether an account paid earlier from its spans; migrations 0049, 0052.';

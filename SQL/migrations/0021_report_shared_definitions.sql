-- Report SQL shared by definition, not by copy (issue 29). What the report files used to paste into each other is
-- defined once here, and the files call it:
--   * report_params($1, $2, $3, $4, $5): the five parameters of the report contract, cast and derived once; a basis
--     other than 'corrected' or 'known' fails with an error that names it (every report reads it, so every report
--     fails on a misspelt basis);
--   * report_movement($1, $2, $3, $5): the MRR movement per billing account, provider, currency and snapshot that
--     mrr_movements.sql and mrr_bridge.sql share (it was a block pasted into both);
--   * report_run_snapshot / report_run_contribution / report_run_movement: what the files read. Each returns the rows
--     build-reports filled once for its run when it filled them for exactly these parameters, and otherwise computes
--     them (report_snapshot, report_contribution, report_movement), so a file run by hand gives the same rows.
--
-- How the run-time sharing works without rewriting the files: build-reports creates, in its transaction, temporary
-- tables named like the placeholder tables below (a temporary table is found before the schema's table of the same
-- name) and fills them, then records in its report_run_filled which relations it filled for which parameters. The
-- placeholders are always empty (each refuses any row: CHECK (false)), so outside such a run every call computes.
-- The functions are plain SQL of one statement, which PostgreSQL inlines into the calling report: the planner sees the
-- filled table (and its statistics), and the branch not taken is cut by a one-time filter and never runs.

-- The placeholders: the shape of what build-reports fills. Never written (see above).
CREATE TABLE report_run_filled (
    relation text NOT NULL,
    as_of timestamptz,
    first_month timestamptz,
    last_month timestamptz,
    basis text,
    CONSTRAINT report_run_filled_is_a_placeholder CHECK (false)
);
COMMENT ON TABLE report_run_filled IS
    'Always empty: build-reports shadows it with a temporary table naming the relations it filled for its run (migration 0021).';

CREATE TABLE report_snapshot_run (n bigint, month text, month_start date, reported boolean, at timestamptz,
                                  CONSTRAINT report_snapshot_run_is_a_placeholder CHECK (false));
CREATE TABLE report_contribution_run (n bigint, provider text, billing_account_id uuid, subscription_id uuid, currency text,
                                      country text, product_id text, plan_id uuid, billing_period text, twelfths bigint,
                                      CONSTRAINT report_contribution_run_currency_shape CHECK (currency ~ '^[A-Z]{3}$'),
                                      CONSTRAINT report_contribution_run_is_a_placeholder CHECK (false));
CREATE TABLE report_movement_run (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric,
                                  movement text,
                                  CONSTRAINT report_movement_run_currency_shape CHECK (currency ~ '^[A-Z]{3}$'),
                                  CONSTRAINT report_movement_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_snapshot_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0021).';
COMMENT ON TABLE report_contribution_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0021).';
COMMENT ON TABLE report_movement_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0021).';

-- The five parameters, always bound in this order (Reports/README.md, "Basis and snapshots"): the as-of instant, the
-- first and last months reported (any instant in them; the last clamped to the as-of month; range_start / range_end
-- are the unclamped months as instants, for the reconciliation periods), the reporting currency and the basis. The
-- one row exists only for a valid basis: any other fails with an error that names it.
CREATE FUNCTION report_params(as_of timestamptz, first_month timestamptz, last_month timestamptz,
                              reporting_currency text, basis text)
RETURNS TABLE (as_of timestamptz, first_month timestamp, last_month timestamp, range_start timestamptz,
               range_end timestamptz, reporting_currency text, basis text, known_basis boolean)
LANGUAGE sql STABLE AS $fn$
SELECT $1,
       date_trunc('month', $2 AT TIME ZONE 'UTC'),
       LEAST(date_trunc('month', $3 AT TIME ZONE 'UTC'), date_trunc('month', $1 AT TIME ZONE 'UTC')),
       date_trunc('month', $2 AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
       (date_trunc('month', $3 AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC',
       $4, $5, $5 = 'known'
WHERE CAST(CASE WHEN $5 IN ('corrected', 'known') THEN 'true'
                ELSE 'basis must be corrected or known, not ' || COALESCE($5, 'NULL') END AS boolean)
$fn$;

COMMENT ON FUNCTION report_params(timestamptz, timestamptz, timestamptz, text, text) IS
    'The report contract''s five parameters, cast once; an unknown basis is an error naming it; Reports/README.md "Basis and snapshots".';

-- The snapshots, as filled for this run or computed.
CREATE FUNCTION report_run_snapshot(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, month text, month_start date, reported boolean, at timestamptz)
LANGUAGE sql STABLE AS $fn$
SELECT r.n, r.month, r.month_start, r.reported, r.at
FROM report_snapshot_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'snapshot' AND f.as_of = $1
                 AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
UNION ALL
SELECT s.n, s.month, s.month_start, s.reported, s.at
FROM report_snapshot($1, $2, $3, $4) s
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'snapshot' AND f.as_of = $1
                     AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
$fn$;

-- The contributions, as filled for this run or computed.
CREATE FUNCTION report_run_contribution(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, subscription_id uuid, currency text, country text,
               product_id text, plan_id uuid, billing_period text, twelfths bigint)
LANGUAGE sql STABLE AS $fn$
SELECT r.n, r.provider, r.billing_account_id, r.subscription_id, r.currency, r.country, r.product_id, r.plan_id,
       r.billing_period, r.twelfths
FROM report_contribution_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'contribution' AND f.as_of = $1
                 AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
UNION ALL
SELECT c.n, c.provider, c.billing_account_id, c.subscription_id, c.currency, c.country, c.product_id, c.plan_id,
       c.billing_period, c.twelfths
FROM report_contribution($1, $2, $3, $4) c
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'contribution' AND f.as_of = $1
                     AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
$fn$;

-- The movement of each billing account (per provider and currency) from p, its contribution at the previous snapshot
-- (0 when not paying then), to v, at this one, in twelfths of a micro: p = 0 < v new, or reactivation when the account
-- paid at any earlier snapshot; v = 0 < p churn (at the snapshot after its last paying one, within the snapshots);
-- v > p > 0 expansion; 0 < v < p contraction; v = p unchanged. Reports/README.md, "Movements".
CREATE FUNCTION report_movement(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE AS $fn$
WITH account_value AS (
    SELECT c.n, c.provider, c.billing_account_id, c.currency, sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c GROUP BY c.n, c.provider, c.billing_account_id, c.currency
),
paid_run AS (
    SELECT a.*, lag(a.n) OVER w AS prev_n, lag(a.v) OVER w AS prev_v, lead(a.n) OVER w AS next_n
    FROM account_value a
    WINDOW w AS (PARTITION BY a.provider, a.billing_account_id, a.currency ORDER BY a.n)
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
    'Per snapshot n, each billing account''s MRR movement (p to v, twelfths of a micro); Reports/README.md "Movements".';

-- The movements, as filled for this run or computed.
CREATE FUNCTION report_run_movement(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE AS $fn$
SELECT r.n, r.provider, r.billing_account_id, r.currency, r.p, r.v, r.movement
FROM report_movement_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'movement' AND f.as_of = $1
                 AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
UNION ALL
SELECT m.n, m.provider, m.billing_account_id, m.currency, m.p, m.v, m.movement
FROM report_movement($1, $2, $3, $4) m
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'movement' AND f.as_of = $1
                     AND f.first_month = $2 AND f.last_month = $3 AND f.basis = $4)
$fn$;

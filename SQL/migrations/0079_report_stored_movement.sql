-- The open month's movements kept from one night to the next (issue 31; Reports/README.md, "The open month's
-- movements from the night before").
--
-- A night computes the movements of its last snapshot only (0078): every account's value there against its value at
-- the snapshot before, 365,000 accounts at 1M subscriptions, 3.5 s of the job's session although only the accounts of
-- the spans that changed since the night before have other rows. An account's movement row at the last snapshot reads
-- only the spans of that account (its value there and at the snapshot before, and for an account without a value
-- before, whether it paid at an earlier snapshot). So the rows of the night before stay right for every account but
-- those with a span that differs from the stored ones (the night's `report_span_difference`: the old spans and the
-- new, so an account a purchase left is recomputed too) or whose paying span starts or ends between the two nights'
-- last snapshots (its value there may differ: a span covers a snapshot from its start, inclusive, to its end,
-- exclusive). Those accounts' rows are recomputed; the others' are the stored ones.
--
-- `report_stored_movement` holds one run's rows at its last snapshot, per basis (a partition each, whose `basis`
-- defaults to its own value, so a night's binary COPY of its movement table loads it as it is);
-- `report_stored_movement_set` says what they are: the store generation of the spans they were computed from (a night
-- stores them in the transaction that stores its spans: the rows belong to exactly the spans of that generation), the
-- run's first and last months, the snapshot and its instant, and the instant of the snapshot before. A night reuses
-- them only when all of these match its own but the last instant, which must not be later than its own.
--
-- `report_movement_at` (0078) gains a sixth argument: the accounts whose rows it computes (NULL: every account).

CREATE TABLE report_stored_movement_set (
    basis       text PRIMARY KEY CHECK (basis IN ('corrected', 'known')),
    generation  bigint NOT NULL,
    first_month timestamptz NOT NULL,
    last_month  timestamptz NOT NULL,
    n           bigint NOT NULL,
    before_at   timestamptz NOT NULL,
    at          timestamptz NOT NULL
);
COMMENT ON TABLE report_stored_movement_set IS
    'build-reports: per basis, what the stored movements are (the span generation, months and snapshots they were computed for); migration 0079.';

CREATE TABLE report_stored_movement (
    basis              text NOT NULL CHECK (basis IN ('corrected', 'known')),
    n                  bigint NOT NULL,
    provider           text NOT NULL,
    billing_account_id uuid NOT NULL,
    currency           text CHECK (currency ~ '^[A-Z]{3}$'),
    p                  numeric NOT NULL,
    v                  numeric NOT NULL,
    movement           text NOT NULL
) PARTITION BY LIST (basis);
CREATE UNLOGGED TABLE report_stored_movement_corrected PARTITION OF report_stored_movement (basis DEFAULT 'corrected')
    FOR VALUES IN ('corrected');
CREATE UNLOGGED TABLE report_stored_movement_known PARTITION OF report_stored_movement (basis DEFAULT 'known')
    FOR VALUES IN ('known');
COMMENT ON TABLE report_stored_movement IS
    'build-reports: a night''s movement rows at its last snapshot, reused by the next night for the accounts whose spans did not change (migration 0079).';

DROP FUNCTION report_movement_at(timestamptz, timestamptz, timestamptz, text, bigint);

CREATE FUNCTION report_movement_at(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                   at_n bigint, accounts uuid[])
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE SET enable_sort = off SET enable_nestloop = off SET enable_mergejoin = off AS $fn$
WITH here AS (
    SELECT c.billing_account_id, c.provider, c.currency, sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n = $5 AND ($6 IS NULL OR c.billing_account_id IN (SELECT unnest($6)))
    GROUP BY c.billing_account_id, c.provider, c.currency
),
before AS (
    SELECT c.billing_account_id, c.provider, c.currency, sum(c.twelfths) AS v
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n = $5 - 1 AND ($6 IS NULL OR c.billing_account_id IN (SELECT unnest($6)))
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

COMMENT ON FUNCTION report_movement_at(timestamptz, timestamptz, timestamptz, text, bigint, uuid[]) IS
    'report_movement''s rows at snapshot $5 alone, of the accounts $6 (NULL: all), from the account values there and at the snapshot before (hashed, not windowed); migrations 0078, 0079.';

-- A night's movements at its last snapshot `at_n` from the stored ones of the night before, whose last snapshot was at
-- `since` (the caller checked that the set matches: `report_stored_movement_set`): the stored rows of every account
-- but the affected ones, and the affected accounts' rows recomputed. Affected: an account of a span that differs from
-- the stored ones (the run's `report_span_difference`), or of a paying open span that starts or ends from `since` to
-- the last snapshot (inclusive both: a few more accounts recomputed than must be, never fewer). The open spans of the
-- store hold every such span (they are open after the snapshot before, and these end after `since`).
CREATE FUNCTION report_movement_since(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                      at_n bigint, since timestamptz)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, currency text, p numeric, v numeric, movement text)
LANGUAGE sql STABLE AS $fn$
WITH last_snapshot AS (
    SELECT s.at FROM report_run_snapshot($1, $2, $3, $4) s WHERE s.n = $5
),
affected AS MATERIALIZED (
    SELECT d.billing_account_id FROM report_span_difference d
    UNION
    SELECT o.billing_account_id
    FROM report_stored_span_open o CROSS JOIN last_snapshot l
    WHERE o.basis = $4 AND o.state IS NULL
      AND ((o.from_at >= $6 AND o.from_at <= l.at) OR (o.to_at >= $6 AND o.to_at <= l.at))
)
SELECT m.n, m.provider, m.billing_account_id, m.currency, m.p, m.v, m.movement
FROM report_stored_movement m
WHERE m.basis = $4 AND m.n = $5
  AND NOT EXISTS (SELECT 1 FROM affected a WHERE a.billing_account_id = m.billing_account_id)
UNION ALL
SELECT * FROM report_movement_at($1, $2, $3, $4, $5,
                                 (SELECT COALESCE(array_agg(a.billing_account_id), '{}') FROM affected a))
$fn$;

COMMENT ON FUNCTION report_movement_since(timestamptz, timestamptz, timestamptz, text, bigint, timestamptz) IS
    'A night''s movements at snapshot $5 from the stored ones of a night whose last snapshot was at $6: the unaffected accounts'' stored rows, the others recomputed; migration 0079.';

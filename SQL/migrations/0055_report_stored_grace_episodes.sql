-- grace_hold_recovery from stored failure episodes (issue 31; Reports/README.md, "Stored failure episodes").
--
-- The report segments the history of every subscription with a grace or hold row into failure episodes, then groups
-- them by failure month: 14 s of a 1M night for one day of new rows, because every episode is found again. An
-- episode reads nothing but its own subscription's rows (and `subscription`/`plan` only to leave test purchases out
-- and to name the plan), so its episodes change only when the subscription is a candidate since the store
-- (`report_history_changed`, 0053). So:
--   * `report_grace_episode(as_of, basis, subscriptions)` is the report's per-subscription step (the given
--     subscriptions' episodes, or every one with NULL), its rows those the report grouped before;
--   * the second session of a run fills a temporary `report_grace_episode_run` with the stored episodes of the
--     subscriptions that are no candidates and the candidates' computed ones (every one computed when the store is
--     not the span set's, or `--full`), and the report groups the run's episodes (`report_run_grace_episode`, which
--     computes them from the history when the run did not fill them);
--   * the run that stores the spans stores the episodes it computed beside them (`report_stored_grace_episode`, same
--     transaction), or deletes the basis's when it computed none or the set's snapshot is unknown.

CREATE FUNCTION report_grace_episode(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, failed_at timestamptz, provider text, country_code text, entered_grace boolean,
               entered_hold boolean, close_kind integer, closed_at timestamptz, plan_id uuid, currency text,
               recovered_twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT * FROM report_params($1, $1, $1, NULL, $2)
),
-- Subscriptions with a failure row (grace or hold), whatever the basis, and their first failure instant: only they can
-- have an episode, and only from that instant on (a row before it closes no episode), so only those rows are segmented
-- (a tenth of the history, not all of it); a test purchase (any row is_test) counts nowhere.
subscriber AS (
    SELECT f.subscription_id, f.first_failure_at
    FROM (SELECT b.subscription_id, min(b.effective_at) AS first_failure_at FROM billing_transaction b
          WHERE b.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD') AND ($3 IS NULL OR b.subscription_id = ANY ($3))
          GROUP BY b.subscription_id) f
    WHERE NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = f.subscription_id AND t.is_test)
),
-- The rows that open, end or recover a failure, as known on the chosen basis, from the subscription's first failure on.
event AS (
    SELECT b.subscription_id, b.transaction_key, b.effective_at, b.provider::text AS provider, b.country_code, b.currency_code,
           b.amount_micros, b.plan_id,
           CASE WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 0
                WHEN b.event_type = 'ENTERED_ON_HOLD' THEN 1
                WHEN b.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3
                ELSE 2 END AS kind,
           CASE b.billing_period
               WHEN 'P1W' THEN 52 WHEN 'P2W' THEN 26 WHEN 'P4W' THEN 13 WHEN 'P1M' THEN 12 WHEN 'P2M' THEN 6
               WHEN 'P3M' THEN 4 WHEN 'P6M' THEN 2 WHEN 'P1Y' THEN 1 END AS factor
    FROM billing_transaction b JOIN subscriber s USING (subscription_id), params p
    -- (the given subscriptions' rows by index: the subscriber join alone was a hash join over every row)
    WHERE ($3 IS NULL OR b.subscription_id = ANY ($3))
      AND b.effective_at <= p.as_of AND b.effective_at >= s.first_failure_at
      AND (p.basis = 'corrected' OR b.recorded_at <= p.as_of)
      AND (b.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'EXPIRED', 'REVOKED', 'REFUNDED')
           OR (b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
               AND b.amount_micros > 0))
),
-- One sorted pass: each row with its segment (the rows after one closing row, a charge or an ending, up to and
-- including the next one; numbered by the closing rows before it) and the kind of the row before it. A segment is
-- failure rows, then its closing row (none while the failure is open).
segmented AS (
    SELECT e.*,
           count(*) FILTER (WHERE e.kind >= 2) OVER w - CASE WHEN e.kind >= 2 THEN 1 ELSE 0 END AS seg,
           lag(e.kind) OVER w AS previous_kind
    FROM event e
    WINDOW w AS (PARTITION BY e.subscription_id ORDER BY e.effective_at, e.kind, e.transaction_key ROWS UNBOUNDED PRECEDING)
),
-- One episode per segment holding a failure row: its first failure row (the one after a closing row or first of all),
-- whether it holds a hold row, and its closing row (the one after a failure row). Grouped from those rows only.
episode AS (
    SELECT s.subscription_id, s.seg,
           max(s.effective_at) FILTER (WHERE s.is_first) AS failed_at, max(s.provider) FILTER (WHERE s.is_first) AS provider,
           max(s.country_code) FILTER (WHERE s.is_first) AS country_code, bool_or(s.kind = 0) FILTER (WHERE s.is_first) AS entered_grace,
           max(s.currency_code) FILTER (WHERE s.is_first) AS failure_currency,
           bool_or(s.kind = 1) AS entered_hold,
           max(s.kind) FILTER (WHERE s.kind >= 2) AS close_kind, max(s.effective_at) FILTER (WHERE s.kind >= 2) AS closed_at,
           (array_agg(s.plan_id) FILTER (WHERE s.kind >= 2))[1] AS close_plan,
           max(s.currency_code) FILTER (WHERE s.kind >= 2) AS close_currency,
           max(s.amount_micros * s.factor) FILTER (WHERE s.kind >= 2) AS recovered_twelfths
    FROM (SELECT g.*, g.kind < 2 AND (g.previous_kind IS NULL OR g.previous_kind >= 2) AS is_first
          FROM segmented g WHERE g.kind < 2 OR g.previous_kind < 2) s
    GROUP BY s.subscription_id, s.seg
)
-- The plan renewed (the recovering charge's, else the latest charge's before the failure) and the currency; the
-- latest charge is looked up only where the episode's own rows do not give both.
SELECT e.subscription_id, e.failed_at, e.provider, e.country_code, e.entered_grace, e.entered_hold, e.close_kind,
       e.closed_at, COALESCE(CASE WHEN e.close_kind = 2 THEN e.close_plan END, l.plan_id) AS plan_id,
       COALESCE(e.failure_currency, CASE WHEN e.close_kind = 2 THEN e.close_currency END, l.currency_code) AS currency,
       e.recovered_twelfths
FROM episode e
LEFT JOIN LATERAL (
    SELECT b.plan_id, b.currency_code FROM billing_transaction b, params p
    WHERE (e.close_kind IS DISTINCT FROM 2 OR e.close_plan IS NULL
           OR (e.failure_currency IS NULL AND e.close_currency IS NULL))
      AND b.subscription_id = e.subscription_id AND b.plan_id IS NOT NULL AND b.effective_at <= e.failed_at
      AND (p.basis = 'corrected' OR b.recorded_at <= p.as_of)
    ORDER BY b.effective_at DESC, b.transaction_key DESC LIMIT 1) l ON true
$fn$;
COMMENT ON FUNCTION report_grace_episode(timestamptz, text, uuid[]) IS
    'Per failure episode of the given subscriptions (all with NULL) as of $1 under basis $2: grace_hold_recovery''s per-subscription step, stored beside the spans (migration 0055).';

-- The run's episodes: the second session fills a temporary report_grace_episode_run; the placeholder is always empty.
CREATE TABLE report_grace_episode_run (subscription_id uuid, failed_at timestamptz, provider text, country_code text,
                                       entered_grace boolean, entered_hold boolean, close_kind integer,
                                       closed_at timestamptz, plan_id uuid, currency text CHECK (currency ~ '^[A-Z]{3}$'),
                                       recovered_twelfths bigint,
                                       CONSTRAINT report_grace_episode_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_grace_episode_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0055).';

CREATE FUNCTION report_run_grace_episode(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, failed_at timestamptz, provider text, country_code text, entered_grace boolean,
               entered_hold boolean, close_kind integer, closed_at timestamptz, plan_id uuid, currency text,
               recovered_twelfths bigint)
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_grace_episode_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'grace_episode' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_grace_episode($1, $2, NULL) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'grace_episode' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_grace_episode(timestamptz, text) IS
    'The run''s failure episodes (report_grace_episode_run) when build-reports filled them for this as-of instant and basis; report_grace_episode($1, $2, NULL) otherwise (migration 0055).';

-- The store, per basis: each subscription's episodes as of the span set's as-of instant and snapshot; a cache
-- (UNLOGGED), with the digest of report_grace_episode's SQL that computed it.
CREATE UNLOGGED TABLE report_stored_grace_episode (
    basis              text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id    uuid NOT NULL,
    failed_at          timestamptz,
    provider           text,
    country_code       text,
    entered_grace      boolean,
    entered_hold       boolean,
    close_kind         integer,
    closed_at          timestamptz,
    plan_id            uuid,
    currency           text CHECK (currency ~ '^[A-Z]{3}$'),
    recovered_twelfths bigint,
    definition         text NOT NULL
);
CREATE INDEX report_stored_grace_episode_subscription ON report_stored_grace_episode (basis, subscription_id);
COMMENT ON TABLE report_stored_grace_episode IS
    'build-reports: per basis, the failure episodes (report_grace_episode) of every subscription as of the stored span set''s as-of instant and snapshot (migration 0055).';

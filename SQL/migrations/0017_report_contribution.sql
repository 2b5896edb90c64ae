-- Report contribution, corrected (issue 28): replaces report_contribution of 0013_report_contribution.sql (same
-- signature and columns; report_snapshot is unchanged). What changed, each stated in Reports/README.md, "MRR":
--   * a grace row counts only until its own end (the grace row's expires_at: Google's extended expiryTime, Apple's
--     gracePeriodExpiresDate) when no hold, expiry or recovery row follows it before then (finding 2);
--   * a subscriber who has never paid (no charge with an amount > 0 at or before the grace row) contributes nothing in
--     grace: a free trial whose conversion fails into grace is not MRR, and its first paid charge is `new` (finding 5);
--   * rows at one instant are read charge, grace, hold or pause, then expiry / revocation / refund, rows of one kind by
--     transaction_key, never by row id (random UUIDs, so the result depended on load order) (finding 3).

-- What each paying subscription contributes at each snapshot (absent = 0), in twelfths of a micro, with the
-- subscription's provider and billing account and the currency, country, product, plan and billing period of the charge
-- that prices it at the snapshot.
CREATE OR REPLACE FUNCTION report_contribution(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, subscription_id uuid, currency text, country text,
               product_id text, plan_id uuid, billing_period text, twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    SELECT $1 AS as_of,
           CAST(CASE WHEN $4 IN ('corrected', 'known') THEN 'true'
                     ELSE 'basis must be corrected or known, not ' || COALESCE($4, 'NULL') END AS boolean)
               AND $4 = 'known' AS known_basis
),
-- The history rows read: effective by the as-of instant; under basis 'known' also recorded by then.
history AS (
    SELECT b.subscription_id, b.id, b.transaction_key, b.event_type, b.effective_at, b.expires_at, b.amount_micros,
           b.currency_code, b.country_code, b.product_id, b.plan_id, b.billing_period, b.period_end_at
    FROM billing_transaction b, params p
    WHERE b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
),
-- Monthly twelfths of an ISO billing period (whole twelfths: P1W is 52/12 of a month, P1Y 1/12).
period_factor (billing_period, factor) AS (
    VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1)
),
snapshot AS (
    SELECT * FROM report_snapshot($1, $2, $3, $4)
),
-- The first snapshot's month (as a month count, year x 12 + month - 1, and as its first instant) and the last n.
bounds AS (
    SELECT (extract(year FROM min(s.month_start)) * 12 + extract(month FROM min(s.month_start)) - 1)::int AS months,
           min(s.month_start)::timestamp AS origin, max(s.n)::int AS last_n
    FROM snapshot s
),
-- Who counts: subscriptions that are not test or sandbox purchases (no history row of theirs is a test row).
-- An unclaimed purchase (no billing account yet) is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS billing_account_id
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
),
-- Charges: a paid period bought at a price (a free trial is a charge of 0). Contribution = amount x the whole
-- number of monthly twelfths of its ISO billing period, i.e. twelfths of a micro, exact.
charge AS (
    SELECT h.subscription_id, h.effective_at, h.transaction_key, h.event_type, h.period_end_at, h.currency_code, h.country_code,
           h.product_id, h.plan_id, h.billing_period, h.amount_micros * f.factor AS twelfths, sub.provider,
           sub.billing_account_id
    FROM history h JOIN subscriber sub USING (subscription_id) LEFT JOIN period_factor f USING (billing_period)
    WHERE h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
      AND h.amount_micros IS NOT NULL AND h.period_end_at IS NOT NULL
),
-- The rows that set what a subscription contributes from their instant on, each with its rank at one instant:
--   0 CHARGE  its twelfths until its period ends (half-open);
--   1 GRACE   still paying, at the renewal being retried, until the grace ends (the grace row's expires_at, when
--             later than the row; half-open): the RECOVERED charge that ends the grace when there is one, else the
--             grace row's amount (the store's renewal price) over the latest charge's billing period, else the latest
--             paid charge; product, plan and country from the charge it is priced by. A subscriber who has never paid
--             (no charge with an amount > 0 at or before the grace row, e.g. a free trial whose conversion failed)
--             contributes nothing in grace or hold: their first paid charge is `new`;
--   2 OFF     on hold or paused: nothing;
--   3 OFF     expired, revoked, refunded: nothing. (CANCELED = auto-renew off changes nothing.)
-- Rows at one instant are read in rank order, rows of one rank by transaction_key (the store's key, never the row id,
-- so the order does not depend on load order); the last row read holds.
-- (The charges around a grace row are looked up in billing_transaction under the same filters as `charge`.)
state AS (
    SELECT subscription_id, effective_at, transaction_key, 0 AS rank, 'CHARGE' AS kind, period_end_at, currency_code,
           country_code, product_id, plan_id, billing_period, twelfths, provider, billing_account_id
    FROM charge
    UNION ALL
    SELECT g.subscription_id, g.effective_at, g.transaction_key, 1, 'GRACE',
           CASE WHEN g.expires_at > g.effective_at THEN g.expires_at END,
           COALESCE(n.currency_code, g.currency_code, c.currency_code),
           COALESCE(n.country_code, l.country_code, g.country_code), COALESCE(n.product_id, l.product_id, g.product_id),
           COALESCE(n.plan_id, l.plan_id, g.plan_id), COALESCE(n.billing_period, l.billing_period, g.billing_period),
           CASE WHEN c.twelfths IS NOT NULL THEN COALESCE(n.twelfths, g.amount_micros * l.factor, c.twelfths) END,
           sub.provider, sub.billing_account_id
    FROM history g JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
    LEFT JOIN LATERAL (
        SELECT b.currency_code, b.amount_micros * f.factor AS twelfths
        FROM billing_transaction b JOIN period_factor f USING (billing_period)
        WHERE b.subscription_id = g.subscription_id AND b.effective_at <= g.effective_at
          AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
          AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
          AND b.amount_micros > 0 AND b.period_end_at IS NOT NULL
        ORDER BY b.effective_at DESC, b.transaction_key DESC LIMIT 1) c ON true
    LEFT JOIN LATERAL (
        SELECT f.factor, b.country_code, b.product_id, b.plan_id, b.billing_period
        FROM billing_transaction b LEFT JOIN period_factor f USING (billing_period)
        WHERE b.subscription_id = g.subscription_id AND b.effective_at <= g.effective_at
          AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
          AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
          AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
        ORDER BY b.effective_at DESC, b.transaction_key DESC LIMIT 1) l ON true
    LEFT JOIN LATERAL (
        SELECT n.currency_code, n.country_code, n.product_id, n.plan_id, n.billing_period, n.amount_micros * f.factor AS twelfths
        FROM (SELECT b.* FROM billing_transaction b
              WHERE b.subscription_id = g.subscription_id AND b.effective_at > g.effective_at AND b.effective_at <= p.as_of
                AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
                AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
              ORDER BY b.effective_at, b.transaction_key LIMIT 1) n
        LEFT JOIN period_factor f USING (billing_period)
        WHERE n.event_type = 'RECOVERED') n ON true
    WHERE g.event_type = 'ENTERED_GRACE_PERIOD'
    UNION ALL
    SELECT h.subscription_id, h.effective_at, h.transaction_key,
           CASE WHEN h.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2 ELSE 3 END, 'OFF',
           NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM history h JOIN subscriber USING (subscription_id)
    WHERE h.event_type IN ('ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED')
),
-- Each state row holds until the next one (in the order above); a paying row holds until then, a charge or a grace
-- with a known end also only until that end. Stop rows are dropped once they have ended the row before them.
span AS (
    SELECT *
    FROM (SELECT s.*, lead(s.effective_at) OVER (PARTITION BY s.subscription_id
                                                 ORDER BY s.effective_at, s.rank, s.transaction_key) AS next_at
          FROM state s) s
    WHERE s.kind <> 'OFF' AND s.twelfths > 0
),
-- A span can only hold at the snapshots of the months from its start's to its end's (a snapshot is in its month), so
-- those are generated by month arithmetic, each with its instant (as `report_snapshot` computes it: the month's last
-- millisecond, or the as-of instant), and the exact half-open test is applied to them alone.
candidate AS (
    SELECT sp.*, k.n, LEAST((b.origin + make_interval(months => k.n::int) - interval '1 millisecond') AT TIME ZONE 'UTC',
                            p.as_of) AS at
    FROM span sp CROSS JOIN bounds b CROSS JOIN params p
    CROSS JOIN LATERAL generate_series(
        GREATEST((extract(year FROM sp.effective_at AT TIME ZONE 'UTC') * 12
                  + extract(month FROM sp.effective_at AT TIME ZONE 'UTC') - 1)::int - b.months + 1, 1),
        LEAST(COALESCE((extract(year FROM LEAST(sp.next_at, sp.period_end_at) AT TIME ZONE 'UTC') * 12
                        + extract(month FROM LEAST(sp.next_at, sp.period_end_at) AT TIME ZONE 'UTC') - 1)::int
                       - b.months + 1, b.last_n), b.last_n)) AS k(n)
)
SELECT c.n::bigint, c.provider, c.billing_account_id, c.subscription_id, c.currency_code, c.country_code, c.product_id,
       c.plan_id, c.billing_period, c.twelfths
FROM candidate c
WHERE c.at >= c.effective_at AND (c.next_at IS NULL OR c.at < c.next_at)
  AND (c.period_end_at IS NULL OR c.at < c.period_end_at)
$fn$;

COMMENT ON FUNCTION report_contribution(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot n (report_snapshot), what each paying subscription contributes to MRR, in twelfths of a micro; Reports/README.md "MRR".';

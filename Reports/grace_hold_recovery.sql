-- Grace and hold recovery: what became of each billing failure, by the month it began.
--
-- One row per month of first billing failure (failure_month, UTC) x provider x plan x country x currency, for the
-- failures that began from the month holding $2 to the month holding $3 (at most the as-of month). Definitions in
-- Reports/README.md, section "Grace and hold recovery".
--
-- Parameters (always bound, in this order; cast in the params CTE):
--   $1  timestamptz  as_of               nothing effective after it is read; "open" means open at this instant
--   $2  timestamptz  first_month         any instant of the first failure month reported
--   $3  timestamptz  last_month          any instant of the last failure month reported (clamped to the as-of month)
--   $4  text         reporting_currency  not used: every figure is in the failure's own currency
--   $5  text         basis               'corrected' (every row effective <= as_of) or 'known' (and recorded_at <= as_of)
--
-- Sources: billing_transaction only (the history rows: ENTERED_GRACE_PERIOD, ENTERED_ON_HOLD, the charges, EXPIRED,
-- REVOKED, REFUNDED), never a subscription's current status; subscription only to leave test purchases out (any
-- history row is_test), plan only for its code.
-- Definitions:
--   * A failure episode begins at an ENTERED_GRACE_PERIOD row, or at an ENTERED_ON_HOLD row when no episode is open
--     (Apple billing retry without a grace period). It ends at the subscription's next paid charge (PURCHASED,
--     RENEWED, RECOVERED, RESTARTED, PRODUCT_CHANGED with an amount > 0): recovered; or at its next EXPIRED, REVOKED or
--     REFUNDED row: churned. Further grace / hold rows inside an open episode belong to it, so an episode counts once.
--   * entered grace: the episode began with a grace row; entered hold: an ENTERED_ON_HOLD row (Google account hold,
--     Apple billing retry after grace) falls inside the episode; recovered in grace: recovered with no hold row before
--     the recovery; recovered from hold: recovered after a hold row; open: neither recovered nor churned by as_of.
--   * Rates (numeric 0..1, 6 decimals, NULL when the denominator is 0): grace_recovery_rate = grace_recovered /
--     grace_entered, hold_recovery_rate = hold_recovered / hold_entered, recovery_rate = (grace_recovered +
--     hold_recovered) / episodes, churn_rate = churned / episodes.
--   * Days to recover (median_recovery_days, p90_recovery_days): recovery instant - failure instant, in days (4
--     decimals); median and p90 are the nearest-rank
--     values (percentile_disc: an observed episode, never an interpolation) over the row's recovered episodes.
--   * MRR recovered: the recovering charge's amount x monthly twelfths of its billing_period (P1W 52, P1M 12, P1Y 1, ...)
--     summed exactly and divided by 12 once, rounded half to even (micros of the row's currency).
--   * Plan: the recovering charge's plan, else the plan of the latest charge (a free trial's included) at or before the
--     failure (the plan being renewed);
--     country: the failure row's country_code (Apple storefront alpha-3, Google region alpha-2); currency: the failure
--     row's currency (the renewal price retried), else the latest charge's.
--   * At one instant a grace row is read first, then a hold row, a charge and an ending row; rows of one kind by
--     transaction_key (the store's key, so the order never depends on row ids or load order).

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- Every failure episode of the run (the schema's report_grace_episode, migration 0055: the subscriptions with a grace
-- or hold row, their rows from the first failure on segmented into episodes, each with its plan and currency as the
-- definitions above say; test purchases left out). report_run_grace_episode returns the run's episodes, stored per
-- subscription and recomputed for the subscriptions changed since (Reports/README.md, "Stored failure episodes"), or
-- computes them when the file is run on its own. Here: the episodes that began in the reported months.
placed AS (
    SELECT e.*, to_char(e.failed_at AT TIME ZONE 'UTC', 'YYYY-MM') AS failure_month
    FROM report_run_grace_episode($1, $5) e
    WHERE date_trunc('month', e.failed_at AT TIME ZONE 'UTC') BETWEEN (SELECT first_month FROM params)
                                                                AND (SELECT last_month FROM params)
),
outcome AS (
    SELECT p.*,
           p.close_kind = 2 AND NOT p.entered_hold AS recovered_in_grace,
           p.close_kind = 2 AND p.entered_hold AS recovered_from_hold,
           p.close_kind = 3 AS churned,
           p.close_kind IS NULL AS still_open,
           CASE WHEN p.close_kind = 2 THEN round(extract(epoch FROM p.closed_at - p.failed_at) / 86400, 4) END AS recover_days
    FROM placed p
),
cell AS (
    SELECT o.failure_month, o.provider, COALESCE(pl.code, '') AS plan, COALESCE(o.country_code, '') AS country,
           COALESCE(o.currency, '') AS currency,
           count(*) AS episodes_count,
           count(*) FILTER (WHERE o.entered_grace) AS grace_entered_count,
           count(*) FILTER (WHERE o.recovered_in_grace) AS grace_recovered_count,
           count(*) FILTER (WHERE o.entered_hold) AS hold_entered_count,
           count(*) FILTER (WHERE o.recovered_from_hold) AS hold_recovered_count,
           count(*) FILTER (WHERE o.churned) AS churned_count,
           count(*) FILTER (WHERE o.still_open) AS open_count,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY o.recover_days) AS median_days_to_recover,
           percentile_disc(0.9) WITHIN GROUP (ORDER BY o.recover_days) AS p90_days_to_recover,
           COALESCE(sum(o.recovered_twelfths) FILTER (WHERE o.close_kind = 2), 0) AS recovered_twelfths
    FROM outcome o LEFT JOIN plan pl ON pl.id = o.plan_id
    GROUP BY 1, 2, 3, 4, 5
)
SELECT c.failure_month, c.provider, c.plan, c.country, c.currency,
       c.episodes_count::bigint AS episodes_count,
       c.grace_entered_count::bigint AS grace_entered_count,
       c.grace_recovered_count::bigint AS grace_recovered_count,
       c.hold_entered_count::bigint AS hold_entered_count,
       c.hold_recovered_count::bigint AS hold_recovered_count,
       c.churned_count::bigint AS churned_count,
       c.open_count::bigint AS open_count,
       round(c.grace_recovered_count::numeric / NULLIF(c.grace_entered_count, 0), 6) AS grace_recovery_rate,
       round(c.hold_recovered_count::numeric / NULLIF(c.hold_entered_count, 0), 6) AS hold_recovery_rate,
       round((c.grace_recovered_count + c.hold_recovered_count)::numeric / c.episodes_count, 6) AS recovery_rate,
       round(c.churned_count::numeric / c.episodes_count, 6) AS churn_rate,
       c.median_days_to_recover AS median_recovery_days, c.p90_days_to_recover AS p90_recovery_days,
       -- twelfths of a micro -> micros, half to even, once (round() would round half away from zero).
       (CASE WHEN 2 * (c.recovered_twelfths - 12 * q.q) > 12 THEN q.q + 1
             WHEN 2 * (c.recovered_twelfths - 12 * q.q) = 12 THEN q.q + (q.q % 2 + 2) % 2
             ELSE q.q END)::bigint AS mrr_recovered_micros
FROM cell c
CROSS JOIN LATERAL (SELECT floor(c.recovered_twelfths / 12.0)::numeric AS q) q
ORDER BY c.failure_month, c.provider, c.plan, c.country, c.currency

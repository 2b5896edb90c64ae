-- Month-end MRR: one row per month x provider x store product x plan x billing period x currency x country, in that
-- currency (the local view; the same MRR summed per provider and currency, and converted to the reporting currency,
-- is the mrr_micros of Reports/mrr_bridge.sql).
--
-- Columns: mrr_micros (the sum of the paying subscriptions' monthly-normalised recurring price at the month's
-- snapshot), paying_subscribers (how many subscriptions contribute), arppu_micros (mrr / paying subscribers).
-- product_id, plan_code, billing_period and country are those of the charge that sets the subscription's price at the
-- snapshot (its latest charge; in a grace period the renewal being retried).
-- Every cell is rounded half to even once from its exact sum (twelfths of a micro), so the rows of a provider and
-- currency may add up to the bridge's mrr_micros give or take half a micro per row.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "MRR" and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The month-end snapshots (n from 1, from the first month with history; `reported` marks the months asked for; a
-- snapshot is the month's last millisecond, or the as-of instant) and what each paying subscription contributes at
-- each of them, in twelfths of a micro, with the currency, country, product, plan and billing period of the charge that
-- prices it: functions of the schema (SQL/migrations/*_report_contribution.sql; who pays, grace, twelfths:
-- Reports/README.md "MRR"), read from the tables build-reports fills once per run (0021_report_shared_definitions.sql).
snapshot AS (
    SELECT * FROM report_run_snapshot($1, $2, $3, $5)
),
contribution AS (
    SELECT * FROM report_run_contribution($1, $2, $3, $5)
),
-- Grouped by plan id first, then by its code (a few thousand groups: the plan is looked up per group, not per row);
-- only the reported snapshots' contributions (from the first reported one on: a run that computes its last months
-- does not group every snapshot's).
cell AS (
    SELECT c.n, c.provider, c.product_id, pl.code AS plan_code, c.billing_period, c.currency, c.country,
           sum(c.twelfths) AS twelfths, sum(c.paying)::bigint AS paying
    FROM (SELECT n, provider, product_id, plan_id, billing_period, currency, country, sum(twelfths) AS twelfths,
                 count(*) AS paying
          FROM contribution WHERE n >= (SELECT min(n) FROM snapshot WHERE reported)
          GROUP BY n, provider, product_id, plan_id, billing_period, currency, country) c
    LEFT JOIN plan pl ON pl.id = c.plan_id
    GROUP BY c.n, c.provider, c.product_id, pl.code, c.billing_period, c.currency, c.country
)
SELECT sn.month, c.provider, c.product_id, c.plan_code, c.billing_period, c.currency, c.country,
       (div(c.twelfths, 12) + CASE WHEN 2 * mod(c.twelfths, 12) > 12
                                        OR (2 * mod(c.twelfths, 12) = 12 AND mod(div(c.twelfths, 12), 2) = 1)
                                   THEN 1 ELSE 0 END)::bigint AS mrr_micros,
       c.paying AS paying_subscribers,
       (div(c.twelfths, 12 * c.paying) + CASE WHEN 2 * mod(c.twelfths, 12 * c.paying) > 12 * c.paying
                                                   OR (2 * mod(c.twelfths, 12 * c.paying) = 12 * c.paying
                                                       AND mod(div(c.twelfths, 12 * c.paying), 2) = 1)
                                              THEN 1 ELSE 0 END)::bigint AS arppu_micros
FROM cell c JOIN snapshot sn USING (n)
WHERE sn.reported
ORDER BY sn.month, c.provider, c.product_id NULLS FIRST, c.plan_code NULLS FIRST, c.billing_period NULLS FIRST,
         c.currency, c.country NULLS FIRST

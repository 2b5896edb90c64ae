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

WITH params AS (
    -- The five parameters, always bound in this order (see Reports/README.md, "Basis and snapshots").
    SELECT $1::timestamptz AS as_of,
           date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC') AS first_month,
           LEAST(date_trunc('month', $3::timestamptz AT TIME ZONE 'UTC'),
                 date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC')) AS last_month,
           $4::text AS reporting_currency,
           -- Any basis other than 'corrected' or 'known' fails with an error that names it.
           CAST(CASE WHEN $5::text IN ('corrected', 'known') THEN 'true'
                     ELSE 'basis must be corrected or known, not ' || COALESCE($5::text, 'NULL') END AS boolean)
               AND $5::text = 'known' AS known_basis
),
-- BEGIN contribution (this block is identical in mrr.sql, mrr_movements.sql, mrr_bridge.sql and fx_missing.sql)
-- The month-end snapshots (n from 1, from the first month with history; `reported` marks the months asked for; a
-- snapshot is the month's last millisecond, or the as-of instant) and what each paying subscription contributes at
-- each of them, in twelfths of a micro, with the currency, country, product, plan and billing period of the charge that
-- prices it. Both are functions of the schema, defined and commented in SQL/migrations/*_report_contribution.sql
-- (who pays, grace, twelfths: Reports/README.md "MRR"); build-reports reads them from tables it fills once per run.
snapshot AS (
    SELECT * FROM report_snapshot($1, $2, $3, $5)
),
contribution AS (
    SELECT * FROM report_contribution($1, $2, $3, $5)
),
-- END contribution
cell AS (
    SELECT c.n, c.provider, c.product_id, pl.code AS plan_code, c.billing_period, c.currency, c.country,
           sum(c.twelfths) AS twelfths, count(*) AS paying
    FROM contribution c LEFT JOIN plan pl ON pl.id = c.plan_id
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

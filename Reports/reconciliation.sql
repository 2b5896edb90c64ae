-- Reconciliation: for each provider and report period inside the report range, the run current as of the as-of
-- instant (the latest stored run whose basis instant `known_at` is at or before $1: what `reconcile` or
-- `close-period` had stored by then; a later rerun or close does not change an earlier as-of's report), summarised
-- per currency. One row per provider ×
-- period × currency × row kind × category:
--   row_kind 'category': the items of one category (prior-period adjustments apart): item count (a stored row of
--     summed matched Google units counts the orders it sums, `unit_count`), units on each side,
--     gross on each side, their share of the variance, store fee, tax, net;
--   row_kind 'total': the currency's totals over all categories; its variance is the sum of the category rows';
--   row_kind 'prior_period_adjustment': late rows of an earlier closed period, per category, kept out of the totals.
-- An item's report amounts count in its currency and its database gross in the database's currency (they differ
-- only for a currency mismatch), as `reconcile` computes its totals, so the category variances add up to the total's
-- to the micro. With no run in the range there is one row whose note says so.
--
-- A period is in the range when it overlaps the months $2..$3 (Google: Pacific calendar months; Apple: fiscal
-- periods). Parameters ($4 reporting currency unused: items stay in their own currencies; $5 basis validated
-- only: a run's `known_at` already is its basis) and column names: Reports/README.md.

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
runs AS (
    -- A rerun supersedes the earlier run of its provider and period: one current run each, as of the as-of instant.
    SELECT DISTINCT ON (r.provider, r.period) r.id, r.provider, r.period, r.known_at, r.starts_at, r.ends_at
    FROM reconciliation_run r, params p
    WHERE r.known_at <= p.as_of AND r.starts_at < p.range_end AND r.ends_at > p.range_start
    ORDER BY r.provider, r.period, r.known_at DESC, r.created_at DESC, r.id DESC
),
legs AS (
    -- The report side of every item in its currency, and the database side in the database's currency.
    SELECT r.provider, r.period, r.known_at, i.currency::text AS currency, i.category, i.prior_period_adjustment,
           i.unit_count AS items, i.report_units, 0::int8 AS database_units, i.report_gross_micros, 0::int8 AS database_gross_micros,
           i.store_fee_micros, i.tax_micros, i.net_micros
    FROM runs r JOIN reconciliation_item i ON i.run_id = r.id
    UNION ALL
    SELECT r.provider, r.period, r.known_at, COALESCE(i.database_currency, i.currency)::text, i.category,
           i.prior_period_adjustment, 0, 0, i.database_units, 0, i.database_gross_micros, 0, 0, 0
    FROM runs r JOIN reconciliation_item i ON i.run_id = r.id
),
grouped AS (
    SELECT provider, period, known_at, currency,
           CASE WHEN prior_period_adjustment THEN 'prior_period_adjustment' ELSE 'category' END AS row_kind, category,
           sum(items)::int8 AS items_count, sum(report_units)::int8 AS report_units_count,
           sum(database_units)::int8 AS database_units_count, sum(report_gross_micros)::int8 AS report_gross_micros,
           sum(database_gross_micros)::int8 AS database_gross_micros,
           sum(report_gross_micros - database_gross_micros)::int8 AS variance_micros,
           sum(store_fee_micros)::int8 AS store_fee_micros, sum(tax_micros)::int8 AS tax_micros, sum(net_micros)::int8 AS net_micros
    FROM legs
    GROUP BY provider, period, known_at, currency, prior_period_adjustment, category
),
totals AS (
    SELECT provider, period, known_at, currency, 'total' AS row_kind, '' AS category,
           sum(items_count)::int8, sum(report_units_count)::int8, sum(database_units_count)::int8,
           sum(report_gross_micros)::int8, sum(database_gross_micros)::int8, sum(variance_micros)::int8,
           sum(store_fee_micros)::int8, sum(tax_micros)::int8, sum(net_micros)::int8
    FROM grouped WHERE row_kind = 'category'
    GROUP BY provider, period, known_at, currency
),
result AS (
    SELECT *, '' AS note FROM grouped
    UNION ALL
    SELECT *, '' FROM totals
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           'no reconciliation run for a period in this range'
    WHERE NOT EXISTS (SELECT 1 FROM runs)
)
SELECT lower(x.provider) AS provider, x.period,
       -- How people read the period: Apple's reportDate (fiscal year, period 01 = October) is shown as the calendar
       -- month it is named after, its fiscal label and its first and last (US Pacific) day.
       CASE x.provider
           WHEN 'apple' THEN CASE WHEN right(x.period, 2)::int <= 3
                                  THEN (left(x.period, 4)::int - 1)::text || '-' || lpad((right(x.period, 2)::int + 9)::text, 2, '0')
                                  ELSE left(x.period, 4) || '-' || lpad((right(x.period, 2)::int - 3)::text, 2, '0') END
           WHEN 'google' THEN x.period END AS calendar_month,
       CASE x.provider WHEN 'apple' THEN 'FY' || left(x.period, 4) || ' P' || right(x.period, 2) WHEN 'google' THEN '' END
           AS fiscal_period,
       to_char((p.starts_at AT TIME ZONE 'America/Los_Angeles')::date, 'YYYY-MM-DD') AS first_day,
       to_char((p.ends_at AT TIME ZONE 'America/Los_Angeles')::date - 1, 'YYYY-MM-DD') AS last_day,
       x.known_at, x.currency, x.row_kind, x.category, x.items_count, x.report_units_count,
       x.database_units_count, x.report_gross_micros, x.database_gross_micros, x.variance_micros, x.store_fee_micros, x.tax_micros,
       x.net_micros, x.note
FROM result x LEFT JOIN runs p ON p.provider = x.provider AND p.period = x.period
ORDER BY x.provider NULLS FIRST, x.period, x.currency,
         CASE x.row_kind WHEN 'category' THEN 0 WHEN 'total' THEN 1 ELSE 2 END, x.category;

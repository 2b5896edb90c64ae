-- MRR movement bridge: one row per month x provider x view x currency.
--
--   view 'local'      one provider's accounts paying in one currency, in that currency;
--   view 'reporting'  all of the provider's currencies converted to the reporting currency ($4), currency = $4.
--
-- Columns: start_mrr_micros (the previous month's MRR of the cell), fx_micros, new / expansion / contraction / churn /
-- reactivation _micros and _count, mrr_micros (this month's MRR), paying_accounts_count. The identity
--     mrr = start + fx + new + expansion - contraction - churn + reactivation
-- holds exactly on every row. The movements are the sums of Reports/mrr_movements.sql (same month, provider,
-- currency; converted at the month's rate in the reporting view). In the local view fx is only the rounding of the
-- cells (a few micros at most); in the reporting view it is the exchange-rate effect: the start converted at this
-- month's rate minus the start converted at the previous month's rate, plus that rounding.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency, $5 basis 'corrected' | 'known') and
-- every definition (snapshot, who pays, grace, twelfths, rounding half to even once per cell): Reports/README.md,
-- sections "MRR", "Movements", "FX" and "Basis and snapshots". A converted row exists only when every rate it needs is
-- in fx_rate (month, currency -> $4); Reports/fx_missing.sql lists the missing ones and build-reports fails on them.

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
-- The movement of each billing account, provider and currency from p (the previous snapshot) to v (this one), in
-- twelfths of a micro: the schema's report_movement (Reports/README.md "Movements"), filled once per run.
movement AS (
    SELECT * FROM report_run_movement($1, $2, $3, $5)
),
-- The movements summed per month, provider and currency first (exact integers, twelfths of a micro): every amount of
-- a currency is converted at the same rate, so converting the sums is exactly the sum of the converted rows.
-- has_start: some account paid at the previous snapshot (only then is the previous month's rate needed).
per_currency AS (
    SELECT n, provider, currency, sum(v) AS v, sum(p) AS p, bool_or(p <> 0) AS has_start,
           COALESCE(sum(v) FILTER (WHERE movement = 'new'), 0) AS new,
           COALESCE(sum(v - p) FILTER (WHERE movement = 'expansion'), 0) AS expansion,
           COALESCE(sum(p - v) FILTER (WHERE movement = 'contraction'), 0) AS contraction,
           COALESCE(sum(p) FILTER (WHERE movement = 'churn'), 0) AS churn,
           COALESCE(sum(v) FILTER (WHERE movement = 'reactivation'), 0) AS reactivation,
           count(*) FILTER (WHERE movement = 'new') AS new_count,
           count(*) FILTER (WHERE movement = 'expansion') AS expansion_count,
           count(*) FILTER (WHERE movement = 'contraction') AS contraction_count,
           count(*) FILTER (WHERE movement = 'churn') AS churn_count,
           count(*) FILTER (WHERE movement = 'reactivation') AS reactivation_count,
           count(*) FILTER (WHERE v > 0) AS paying_accounts_count
    -- only the reported months' (an incremental run reports its last months; Reports/README.md "Incremental runs");
    -- p and v are exact integers (sums of twelfths), summed as bigint (an exact numeric sum, without numeric adds)
    FROM (SELECT m.n, m.provider, m.currency, m.movement, m.p::bigint AS p, m.v::bigint AS v
          FROM movement m WHERE m.n >= (SELECT min(n) FROM snapshot WHERE reported)) m
    GROUP BY n, provider, currency
),
-- The month's rate of each currency to the reporting currency (the reporting currency itself is 1 without a row), for
-- the currencies that have movements in the reported months (the only ones the cells convert).
rate AS (
    SELECT sn.n, c.currency, COALESCE(f.rate, CASE WHEN c.currency = p.reporting_currency THEN 1 END) AS rate
    FROM snapshot sn CROSS JOIN (SELECT DISTINCT currency FROM per_currency) c CROSS JOIN params p
    LEFT JOIN fx_rate f ON f.month = sn.month_start AND f.from_currency = c.currency AND f.to_currency = p.reporting_currency
),
-- Each currency's sums valued in each view: x = twelfths x rate x 10^12 over d = 12 x 10^12 (rates have 12 decimals),
-- so a cell is an exact integer ratio; the start at the previous month's rate, everything else at this month's.
valued AS (
    SELECT c.*, 'local' AS view, c.currency AS view_currency, 1::numeric AS rate, 1::numeric AS previous_rate,
           12::numeric AS d
    FROM per_currency c
    UNION ALL
    SELECT c.*, 'reporting', p.reporting_currency, r.rate * 1000000000000, r0.rate * 1000000000000, 12000000000000
    FROM per_currency c CROSS JOIN params p
    JOIN rate r ON r.n = c.n AND r.currency = c.currency
    LEFT JOIN rate r0 ON r0.n = c.n - 1 AND r0.currency = c.currency
),
cell AS (
    SELECT n, provider, view, view_currency AS currency, min(d) AS d,
           sum(v * rate) AS mrr, sum(CASE WHEN has_start THEN p * previous_rate ELSE 0 END) AS start,
           sum(new * rate) AS new, sum(expansion * rate) AS expansion, sum(contraction * rate) AS contraction,
           sum(churn * rate) AS churn, sum(reactivation * rate) AS reactivation,
           sum(new_count)::bigint AS new_count, sum(expansion_count)::bigint AS expansion_count,
           sum(contraction_count)::bigint AS contraction_count, sum(churn_count)::bigint AS churn_count,
           sum(reactivation_count)::bigint AS reactivation_count, sum(paying_accounts_count)::bigint AS paying_accounts_count
    FROM valued
    GROUP BY n, provider, view, view_currency
    HAVING bool_and(rate IS NOT NULL AND (previous_rate IS NOT NULL OR NOT has_start))
),
-- Each cell rounded once, half to even, from its exact sum (all sums are >= 0).
rounded AS (
    SELECT c.n, c.provider, c.view, c.currency, r.*
    FROM cell c CROSS JOIN LATERAL (
        SELECT max(h) FILTER (WHERE k = 'mrr') AS mrr_micros, max(h) FILTER (WHERE k = 'start') AS start_mrr_micros,
               max(h) FILTER (WHERE k = 'new') AS new_micros, max(h) FILTER (WHERE k = 'expansion') AS expansion_micros,
               max(h) FILTER (WHERE k = 'contraction') AS contraction_micros,
               max(h) FILTER (WHERE k = 'churn') AS churn_micros,
               max(h) FILTER (WHERE k = 'reactivation') AS reactivation_micros
        FROM (SELECT k, div(x, c.d) + CASE WHEN 2 * mod(x, c.d) > c.d OR (2 * mod(x, c.d) = c.d AND mod(div(x, c.d), 2) = 1)
                                           THEN 1 ELSE 0 END AS h
              FROM (VALUES ('mrr', c.mrr), ('start', c.start), ('new', c.new), ('expansion', c.expansion),
                           ('contraction', c.contraction), ('churn', c.churn), ('reactivation', c.reactivation)) t(k, x)) t2
    ) r
)
SELECT sn.month, r.provider, r.view, r.currency,
       r.start_mrr_micros::bigint AS start_mrr_micros,
       (r.mrr_micros - r.start_mrr_micros - r.new_micros - r.expansion_micros + r.contraction_micros + r.churn_micros
        - r.reactivation_micros)::bigint AS fx_micros,
       r.new_micros::bigint AS new_micros, r.expansion_micros::bigint AS expansion_micros,
       r.contraction_micros::bigint AS contraction_micros, r.churn_micros::bigint AS churn_micros,
       r.reactivation_micros::bigint AS reactivation_micros, r.mrr_micros::bigint AS mrr_micros,
       c.new_count, c.expansion_count, c.contraction_count, c.churn_count, c.reactivation_count, c.paying_accounts_count
FROM rounded r
JOIN cell c USING (n, provider, view, currency)
JOIN snapshot sn USING (n)
WHERE sn.reported
ORDER BY sn.month, r.provider, r.view, r.currency

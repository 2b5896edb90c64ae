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
-- BEGIN movement (this block is identical in mrr_movements.sql and mrr_bridge.sql)
-- Per billing account, provider and currency: v, its contribution at each snapshot where it pays.
account_value AS (
    SELECT n, provider, billing_account_id, currency, sum(twelfths) AS v
    FROM contribution GROUP BY n, provider, billing_account_id, currency
),
paid_run AS (
    SELECT a.*, lag(a.n) OVER w AS prev_n, lag(a.v) OVER w AS prev_v, lead(a.n) OVER w AS next_n
    FROM account_value a
    WINDOW w AS (PARTITION BY a.provider, a.billing_account_id, a.currency ORDER BY a.n)
),
-- The movement from p (the previous snapshot, 0 when not paying then) to v (this one): p = 0 < v new, or
-- reactivation when the account paid at any earlier snapshot; v = 0 < p churn; v > p > 0 expansion; 0 < v < p
-- contraction; v = p unchanged. Amounts are exact, in twelfths of a micro.
movement AS (
    SELECT n, provider, billing_account_id, currency,
           CASE WHEN prev_n = n - 1 THEN prev_v ELSE 0 END AS p, v,
           CASE WHEN prev_n IS NULL THEN 'new' WHEN prev_n < n - 1 THEN 'reactivation'
                WHEN v > prev_v THEN 'expansion' WHEN v < prev_v THEN 'contraction' ELSE 'unchanged' END AS movement
    FROM paid_run
    UNION ALL
    SELECT n + 1, provider, billing_account_id, currency, v, 0, 'churn'
    FROM paid_run
    WHERE (next_n IS NULL OR next_n > n + 1) AND n + 1 <= (SELECT max(n) FROM snapshot)
),
-- END movement
-- The month's rate of each currency to the reporting currency (the reporting currency itself is 1 without a row).
rate AS (
    SELECT sn.n, c.currency, COALESCE(f.rate, CASE WHEN c.currency = p.reporting_currency THEN 1 END) AS rate
    FROM snapshot sn CROSS JOIN (SELECT DISTINCT currency FROM movement) c CROSS JOIN params p
    LEFT JOIN fx_rate f ON f.month = sn.month_start AND f.from_currency = c.currency AND f.to_currency = p.reporting_currency
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
    FROM movement
    GROUP BY n, provider, currency
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

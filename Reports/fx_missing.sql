-- Exchange rates the MRR reports need but fx_rate lacks: one row per month x currency with no rate to the reporting
-- currency ($4). build-reports runs this first and fails (exit 1) naming every row, so a converted figure is never
-- computed with a silent 0 or 1.
--
-- A reported month needs the rate of every currency paying at its snapshot (MRR and the movements are converted at
-- the month's rate) and, for the FX bucket, the previous month's rate of every currency paying at the previous
-- snapshot (the start is converted at it; churn of it at the month's rate). The reporting currency itself needs no row.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency, $5 basis) and definitions:
-- Reports/README.md, sections "FX" and "Basis and snapshots".

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
needed AS (
    -- This month's rate for what pays now and for what paid at the previous snapshot.
    SELECT sn.n, c.currency FROM snapshot sn JOIN contribution c ON c.n IN (sn.n, sn.n - 1) WHERE sn.reported
    UNION
    -- The previous month's rate for what paid at the previous snapshot.
    SELECT c.n, c.currency FROM snapshot sn JOIN contribution c ON c.n = sn.n - 1 WHERE sn.reported
)
SELECT sn.month, d.currency, p.reporting_currency AS to_currency
FROM needed d JOIN snapshot sn USING (n) CROSS JOIN params p
WHERE d.currency <> p.reporting_currency
  AND NOT EXISTS (SELECT 1 FROM fx_rate f
                  WHERE f.month = sn.month_start AND f.from_currency = d.currency AND f.to_currency = p.reporting_currency)
ORDER BY sn.month, d.currency

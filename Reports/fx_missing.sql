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
-- The currencies paying at each snapshot: a few per snapshot, found once from the contributions (not joined to the
-- snapshots row by row), at the reported snapshots and the one before them only (a month needs no other), so a run
-- that checks only the months it computes (Reports/README.md, "FX") does not read every snapshot's contributions.
paying AS (
    SELECT DISTINCT c.n, c.currency FROM contribution c
    WHERE c.n >= (SELECT min(sn.n) - 1 FROM snapshot sn WHERE sn.reported)
),
needed AS (
    -- This month's rate for what pays now and for what paid at the previous snapshot.
    SELECT sn.n, p.currency FROM snapshot sn JOIN paying p ON p.n IN (sn.n, sn.n - 1) WHERE sn.reported
    UNION
    -- The previous month's rate for what paid at the previous snapshot.
    SELECT p.n, p.currency FROM snapshot sn JOIN paying p ON p.n = sn.n - 1 WHERE sn.reported
)
SELECT sn.month, d.currency, p.reporting_currency AS to_currency
FROM needed d JOIN snapshot sn USING (n) CROSS JOIN params p
WHERE d.currency <> p.reporting_currency
  AND NOT EXISTS (SELECT 1 FROM fx_rate f
                  WHERE f.month = sn.month_start AND f.from_currency = d.currency AND f.to_currency = p.reporting_currency)
ORDER BY sn.month, d.currency

-- MRR movements per billing account: one row per month x provider x billing account x currency whose contribution
-- moved between the previous month-end snapshot and this one (accounts that paid the same at both are left out).
--
-- Columns: movement new | expansion | contraction | churn | reactivation; start_micros (p, the account's MRR at the
-- previous snapshot), end_micros (v, at this one), amount_micros (new, reactivation: v; churn: p; expansion: v - p;
-- contraction: p - v); subscription_id (the account's paying subscription; the lowest id when it has several) and
-- subscriptions_count. The *_micros of a row are rounded half to even from its exact value; the exact values, in
-- twelfths of a micro, are start_twelfths, end_twelfths and amount_twelfths: Reports/mrr_bridge.sql is exactly the sum
-- of amount_twelfths per month, provider, currency and movement, divided by 12 and rounded once (in the reporting view
-- each amount first multiplied by rate_to_reporting, the month's rate of the currency to $4).
-- previous_rate_to_reporting is the previous month's rate (the FX bucket converts the start at it).
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency, $5 basis) and definitions:
-- Reports/README.md, sections "MRR", "Movements", "FX" and "Basis and snapshots".

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
-- Only the snapshots the reported months read: a run that reports its last months (an incremental one,
-- Reports/README.md "Incremental runs") does not read every month's movements.
first_reported AS (
    SELECT min(n) AS n FROM snapshot WHERE reported
),
-- The rates of each snapshot's month to the reporting currency, and per snapshot and currency with a rate in its month
-- or the one before, both (a few hundred rows, joined to the movements once, after their subscriptions).
rate AS (
    SELECT sn.n, f.from_currency AS currency, f.rate
    FROM snapshot sn CROSS JOIN params p
    JOIN fx_rate f ON f.month = sn.month_start AND f.to_currency = p.reporting_currency
),
month_rate AS (
    SELECT COALESCE(r.n, r0.n + 1) AS n, COALESCE(r.currency, r0.currency) AS currency, r.rate, r0.rate AS previous_rate
    FROM rate r FULL JOIN rate r0 ON r0.n = r.n - 1 AND r0.currency = r.currency
),
-- The accounts that moved in a reported month: p and v as integers (exact sums of twelfths; bigint like the *_twelfths
-- columns) and the snapshot whose paying subscriptions the row names (the previous one for churn).
moved AS (
    SELECT m.n, m.provider, m.billing_account_id, m.currency, m.movement, m.p::bigint AS p, m.v::bigint AS v,
           CASE WHEN m.movement = 'churn' THEN m.n - 1 ELSE m.n END AS named_n
    FROM movement m
    WHERE m.movement <> 'unchanged' AND m.n >= (SELECT n FROM first_reported)
),
-- The subscriptions behind each moved account's contribution at the named snapshot: only those accounts' contributions
-- are grouped (most accounts do not move in a month), and only the snapshots a moved row can name are read (the first
-- reported one's previous on: a run that computes its last months does not scan every snapshot's contributions).
-- Grouped and joined by account first: the sorts compare the uuid (bytes) and rarely reach the text keys, which the
-- database's locale would compare more slowly.
account_subscription AS (
    SELECT c.billing_account_id, c.n, c.provider, c.currency, min(c.subscription_id::text) AS subscription_id,
           count(*) AS subscriptions_count
    FROM contribution c
    WHERE c.n >= (SELECT n FROM first_reported) - 1
      AND (c.billing_account_id, c.n, c.provider, c.currency) IN (SELECT billing_account_id, named_n, provider, currency FROM moved)
    GROUP BY c.billing_account_id, c.n, c.provider, c.currency
)
-- The moved rows with their subscriptions, the month, and the rates (the reporting currency itself at 1 when the table
-- has no rate for it; the currency matched bytewise, equality being the same in every collation). Each *_micros is its
-- twelfths divided by 12 and rounded half to even (integer division truncates like div()).
-- Rows by month (n), then provider, currency and movement (ASCII words and codes: the same order in every collation,
-- compared bytewise) and account.
SELECT sn.month, m.provider, m.billing_account_id, m.currency, m.movement,
       m.p / 12 + CASE WHEN 2 * (m.p % 12) > 12 OR (2 * (m.p % 12) = 12 AND (m.p / 12) % 2 = 1) THEN 1 ELSE 0 END AS start_micros,
       m.v / 12 + CASE WHEN 2 * (m.v % 12) > 12 OR (2 * (m.v % 12) = 12 AND (m.v / 12) % 2 = 1) THEN 1 ELSE 0 END AS end_micros,
       m.amount / 12 + CASE WHEN 2 * (m.amount % 12) > 12 OR (2 * (m.amount % 12) = 12 AND (m.amount / 12) % 2 = 1)
                            THEN 1 ELSE 0 END AS amount_micros,
       m.p AS start_twelfths, m.v AS end_twelfths, m.amount AS amount_twelfths,
       COALESCE(r.rate, CASE WHEN m.currency = p.reporting_currency THEN 1 END) AS rate_to_reporting,
       COALESCE(r.previous_rate, CASE WHEN m.currency = p.reporting_currency THEN 1 END) AS previous_rate_to_reporting,
       s.subscription_id, s.subscriptions_count
FROM (SELECT m.*, CASE m.movement WHEN 'churn' THEN m.p WHEN 'expansion' THEN m.v - m.p WHEN 'contraction' THEN m.p - m.v
                                  ELSE m.v END AS amount
      FROM moved m) m
JOIN account_subscription s ON s.billing_account_id = m.billing_account_id AND s.n = m.named_n
                           AND s.provider = m.provider AND s.currency = m.currency
JOIN snapshot sn ON sn.n = m.n AND sn.reported
CROSS JOIN params p
LEFT JOIN month_rate r ON r.n = m.n AND r.currency COLLATE "C" = m.currency
ORDER BY m.n, m.provider COLLATE "C", m.currency COLLATE "C", m.movement COLLATE "C", m.billing_account_id

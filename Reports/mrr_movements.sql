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
-- The subscription behind each account's contribution at a snapshot.
account_subscription AS (
    SELECT n, provider, billing_account_id, currency, min(subscription_id::text) AS subscription_id,
           count(*) AS subscriptions_count
    FROM contribution GROUP BY n, provider, billing_account_id, currency
),
fx AS (
    SELECT sn.n, f.from_currency AS currency, f.rate
    FROM snapshot sn CROSS JOIN params p
    JOIN fx_rate f ON f.month = sn.month_start AND f.to_currency = p.reporting_currency
),
moved AS (
    SELECT m.*, CASE m.movement WHEN 'churn' THEN m.p WHEN 'expansion' THEN m.v - m.p WHEN 'contraction' THEN m.p - m.v
                                ELSE m.v END AS amount
    FROM movement m WHERE m.movement <> 'unchanged'
)
SELECT sn.month, m.provider, m.billing_account_id, m.currency, m.movement,
       (div(m.p, 12) + CASE WHEN 2 * mod(m.p, 12) > 12 OR (2 * mod(m.p, 12) = 12 AND mod(div(m.p, 12), 2) = 1) THEN 1 ELSE 0 END)::bigint AS start_micros,
       (div(m.v, 12) + CASE WHEN 2 * mod(m.v, 12) > 12 OR (2 * mod(m.v, 12) = 12 AND mod(div(m.v, 12), 2) = 1) THEN 1 ELSE 0 END)::bigint AS end_micros,
       (div(m.amount, 12) + CASE WHEN 2 * mod(m.amount, 12) > 12 OR (2 * mod(m.amount, 12) = 12 AND mod(div(m.amount, 12), 2) = 1)
                                 THEN 1 ELSE 0 END)::bigint AS amount_micros,
       m.p::bigint AS start_twelfths, m.v::bigint AS end_twelfths, m.amount::bigint AS amount_twelfths,
       COALESCE(r.rate, CASE WHEN m.currency = p.reporting_currency THEN 1 END) AS rate_to_reporting,
       COALESCE(r0.rate, CASE WHEN m.currency = p.reporting_currency THEN 1 END) AS previous_rate_to_reporting,
       s.subscription_id, s.subscriptions_count
FROM moved m
CROSS JOIN params p
JOIN snapshot sn ON sn.n = m.n
JOIN account_subscription s ON s.provider = m.provider AND s.billing_account_id = m.billing_account_id
                           AND s.currency = m.currency AND s.n = CASE WHEN m.movement = 'churn' THEN m.n - 1 ELSE m.n END
LEFT JOIN fx r ON r.n = m.n AND r.currency = m.currency
LEFT JOIN fx r0 ON r0.n = m.n - 1 AND r0.currency = m.currency
WHERE sn.reported
ORDER BY sn.month, m.provider, m.currency, m.movement, m.billing_account_id

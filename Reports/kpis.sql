-- Key figures per month: one row per month x provider with MRR or active subscriptions, in the reporting currency
-- ($4), and one row per month with provider 'ALL', the sum of the provider rows (counts and amounts added; rates computed from the sums).
--
-- Each column comes from one report (Reports/README.md, "KPIs", names the report and column):
--   mrr_micros, start_mrr_micros, new / expansion / reactivation / contraction / churn _micros,
--   paying_accounts_count, churned_accounts_count     mrr_bridge.sql, view 'reporting' (the same cells)
--   start_paying_accounts_count                       the accounts paying at the previous snapshot (mrr_bridge.sql: the
--                                                     previous month's paying_accounts_count)
--   arr_micros = 12 x mrr_micros; net_new_mrr_micros = new + expansion + reactivation - contraction - churn
--   active_count                                      subscribers.sql: active_count summed over products
--   arppu_micros = mrr / paying accounts; arpu_micros = mrr / active (half to even)
--   logo_churn_rate = churned accounts / start paying accounts; revenue_churn_rate = (churn + contraction) / start MRR;
--   nrr_rate = (start + expansion - contraction - churn) / start MRR;
--   quick_ratio = (new + expansion + reactivation) / (contraction + churn), 4 decimals
--   paid_transactions_count, refunded_transactions_count, chargebacks_count
--                                                     refunds.sql, view 'by_refund_month', summed over currencies and
--                                                     reasons (kind REFUND; kind CHARGEBACK)
--   refund_rate, chargeback_rate = refunded / chargebacks over paid transactions
--   is_partial                                        the month is the as-of month and the as-of instant is before its end
-- Rates have 6 decimals (half away from zero) and are empty when the denominator is 0.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency, $5 basis) and definitions:
-- Reports/README.md, sections "KPIs", "MRR", "Movements", "FX", "Refunds", "Subscribers" and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The snapshots, the movement of each account (report_movement, filled once per run: Reports/README.md "Movements")
-- and each subscription's state (report_subscriber_state, migration 0026: "Subscribers").
snapshot AS (
    SELECT * FROM report_run_snapshot($1, $2, $3, $5)
),
-- Only the reported snapshots are read (a month's movements carry the previous snapshot's values as p, so its paying
-- accounts there too), so a run that computes only its last months (an incremental one: Reports/README.md,
-- "Incremental runs") does not group every snapshot's movements and states.
first_reported AS (
    SELECT min(sn.n) AS n FROM snapshot sn WHERE sn.reported
),
movement AS (
    SELECT m.* FROM report_run_movement($1, $2, $3, $5) m WHERE m.n >= (SELECT f.n FROM first_reported f)
),
active AS (
    SELECT st.n, st.provider, count(*) AS active_count FROM report_run_subscriber_state($1, $2, $3, $5) st
    WHERE st.n >= (SELECT f.n FROM first_reported f)
    GROUP BY st.n, st.provider
),
-- The bridge's reporting view (Reports/README.md "FX"): per month, provider and currency the exact sums in twelfths of
-- a micro, converted at the month's rate (the start at the previous month's), added over currencies and rounded once.
-- The accounts paying at the previous snapshot are the month's rows with p > 0: each such account has exactly one
-- row in the month (its continuing row, or its churn), with its value there as p.
per_currency AS (
    SELECT m.n, m.provider, m.currency, sum(m.v) AS mrr, sum(m.p) AS start, bool_or(m.p <> 0) AS has_start,
           COALESCE(sum(m.v) FILTER (WHERE m.movement = 'new'), 0) AS new,
           COALESCE(sum(m.v - m.p) FILTER (WHERE m.movement = 'expansion'), 0) AS expansion,
           COALESCE(sum(m.p - m.v) FILTER (WHERE m.movement = 'contraction'), 0) AS contraction,
           COALESCE(sum(m.p) FILTER (WHERE m.movement = 'churn'), 0) AS churn,
           COALESCE(sum(m.v) FILTER (WHERE m.movement = 'reactivation'), 0) AS reactivation,
           count(*) FILTER (WHERE m.movement = 'churn') AS churned, count(*) FILTER (WHERE m.v > 0) AS paying,
           count(*) FILTER (WHERE m.p > 0) AS start_paying
    FROM movement m GROUP BY m.n, m.provider, m.currency
),
rate AS (
    SELECT sn.n, c.currency, COALESCE(f.rate, CASE WHEN c.currency = p.reporting_currency THEN 1 END) AS rate
    FROM snapshot sn CROSS JOIN (SELECT DISTINCT currency FROM per_currency) c CROSS JOIN params p
    LEFT JOIN fx_rate f ON f.month = sn.month_start AND f.from_currency = c.currency AND f.to_currency = p.reporting_currency
),
bridge AS (
    SELECT c.n, c.provider,
           report_half_even(sum(c.mrr * r.rate * 1000000000000), 12000000000000) AS mrr,
           report_half_even(sum(CASE WHEN c.has_start THEN c.start * r0.rate * 1000000000000 ELSE 0 END), 12000000000000) AS start,
           report_half_even(sum(c.new * r.rate * 1000000000000), 12000000000000) AS new,
           report_half_even(sum(c.expansion * r.rate * 1000000000000), 12000000000000) AS expansion,
           report_half_even(sum(c.contraction * r.rate * 1000000000000), 12000000000000) AS contraction,
           report_half_even(sum(c.churn * r.rate * 1000000000000), 12000000000000) AS churn,
           report_half_even(sum(c.reactivation * r.rate * 1000000000000), 12000000000000) AS reactivation,
           sum(c.churned) AS churned, sum(c.paying) AS paying, sum(c.start_paying) AS start_paying
    FROM per_currency c
    JOIN rate r ON r.n = c.n AND r.currency = c.currency
    LEFT JOIN rate r0 ON r0.n = c.n - 1 AND r0.currency = c.currency
    GROUP BY c.n, c.provider
    HAVING bool_and(r.rate IS NOT NULL AND (r0.rate IS NOT NULL OR NOT c.has_start))
),
-- Paid transactions and refunds by the month of their instant (refunds.sql, view by_refund_month), from the first
-- reported month on: refunds' paid counts and refund facts summed per month and provider (`report_run_kpi_money`, a
-- refund counting its refunded charge's key once, its own key when it names none; Reports/README.md, "KPIs").
money AS (
    SELECT to_char(m.month, 'YYYY-MM') AS month, m.provider, m.paid, m.refunded, m.chargebacks
    FROM report_run_kpi_money($1, $5) m CROSS JOIN params p
    WHERE m.month >= p.first_month
),
-- Each provider's row (a month and provider with MRR in the bridge or active subscriptions), and the month's 'ALL'
-- row adding them up.
provider_row AS (
    SELECT sn.n, sn.month, k.provider, COALESCE(b.mrr, 0) AS mrr, COALESCE(b.start, 0) AS start, COALESCE(b.new, 0) AS new,
           COALESCE(b.expansion, 0) AS expansion, COALESCE(b.reactivation, 0) AS reactivation,
           COALESCE(b.contraction, 0) AS contraction, COALESCE(b.churn, 0) AS churn, COALESCE(b.paying, 0) AS paying,
           COALESCE(b.start_paying, 0) AS start_paying, COALESCE(b.churned, 0) AS churned, COALESCE(a.active_count, 0) AS active,
           COALESCE(m.paid, 0) AS paid, COALESCE(m.refunded, 0) AS refunded, COALESCE(m.chargebacks, 0) AS chargebacks
    FROM (SELECT n, provider FROM bridge UNION SELECT n, provider FROM active) k
    JOIN snapshot sn ON sn.n = k.n
    LEFT JOIN bridge b ON b.n = k.n AND b.provider = k.provider
    LEFT JOIN active a ON a.n = k.n AND a.provider = k.provider
    LEFT JOIN money m ON m.month = sn.month AND m.provider = k.provider
    WHERE sn.reported
),
kpi_row AS (
    SELECT * FROM provider_row
    UNION ALL
    SELECT n, month, 'ALL', sum(mrr), sum(start), sum(new), sum(expansion), sum(reactivation), sum(contraction), sum(churn),
           sum(paying), sum(start_paying), sum(churned), sum(active), sum(paid), sum(refunded), sum(chargebacks)
    FROM provider_row GROUP BY n, month
)
SELECT k.month, k.provider, p.reporting_currency AS currency,
       (k.month = to_char(p.as_of AT TIME ZONE 'UTC', 'YYYY-MM')
        AND p.as_of < (date_trunc('month', p.as_of AT TIME ZONE 'UTC') + interval '1 month' - interval '1 millisecond') AT TIME ZONE 'UTC')
           AS is_partial,
       k.mrr::bigint AS mrr_micros, (12 * k.mrr)::bigint AS arr_micros,
       (k.new + k.expansion + k.reactivation - k.contraction - k.churn)::bigint AS net_new_mrr_micros,
       k.start::bigint AS start_mrr_micros, k.new::bigint AS new_micros, k.expansion::bigint AS expansion_micros,
       k.reactivation::bigint AS reactivation_micros, k.contraction::bigint AS contraction_micros, k.churn::bigint AS churn_micros,
       k.paying::bigint AS paying_accounts_count, k.start_paying::bigint AS start_paying_accounts_count,
       k.churned::bigint AS churned_accounts_count, k.active::bigint AS active_count,
       CASE WHEN k.paying > 0 THEN report_half_even(k.mrr, k.paying)::bigint END AS arppu_micros,
       CASE WHEN k.active > 0 THEN report_half_even(k.mrr, k.active)::bigint END AS arpu_micros,
       CASE WHEN k.start_paying > 0 THEN round(k.churned::numeric / k.start_paying, 6) END AS logo_churn_rate,
       CASE WHEN k.start > 0 THEN round((k.churn + k.contraction) / k.start, 6) END AS revenue_churn_rate,
       CASE WHEN k.start > 0 THEN round((k.start + k.expansion - k.contraction - k.churn) / k.start, 6) END AS nrr_rate,
       CASE WHEN k.contraction + k.churn > 0
            THEN round((k.new + k.expansion + k.reactivation) / (k.contraction + k.churn), 4) END AS quick_ratio,
       k.paid::bigint AS paid_transactions_count, k.refunded::bigint AS refunded_transactions_count,
       k.chargebacks::bigint AS chargebacks_count,
       CASE WHEN k.paid > 0 THEN round(k.refunded::numeric / k.paid, 6) END AS refund_rate,
       CASE WHEN k.paid > 0 THEN round(k.chargebacks::numeric / k.paid, 6) END AS chargeback_rate
FROM kpi_row k CROSS JOIN params p
ORDER BY k.month, k.provider = 'ALL', k.provider

-- Cohorts: one row per start month x provider x currency x month since start (0 = the start month, to the as-of month),
-- for the cohorts that started in the months reported.
--
-- A cohort is the customers (billing account, provider and currency, as in the bridge) whose first paid charge fell in
-- the start month. Columns: cohort_subscribers (its size), retained_subscribers (paying, i.e. contributing MRR, at the
-- month's snapshot) and subscriber_retention_rate; net_revenue_micros (their paid charges less their refunds and
-- chargebacks dated in the month: realised, refunds deducted), cumulative_net_revenue_micros (to that month),
-- revenue_retention_rate (the month's net revenue / the start month's) and ltv_micros (cumulative net revenue per
-- customer of the cohort: realised LTV to date, rounded half to even).
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "Cohorts", "MRR" and "Basis and snapshots".

WITH params AS (
    -- The five parameters, cast once by the schema's report_params (Reports/README.md, "Basis and snapshots"); a
    -- basis other than 'corrected' or 'known' fails with an error that names it.
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The month-end snapshots (`reported` marks the months whose cells are computed: every month asked for, or, in an
-- incremental run, the months it computes; Reports/README.md "Incremental runs").
snapshot AS (
    SELECT * FROM report_run_snapshot($1, $2, $3, $5)
),
-- Who counts: not a test or sandbox purchase, no test row; an unclaimed purchase is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS account
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
),
-- Per customer (account, provider, currency) and month: its money (paid charges (amount > 0) in, refunds and
-- chargebacks (their negative amounts) out; one read of billing_transaction under the basis), and whether it had a
-- paid charge then.
money AS (
    SELECT sub.account, sub.provider, b.currency_code AS currency, date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AS month,
           sum(b.amount_micros) AS net, bool_or(b.event_type <> 'REFUNDED') AS paid
    FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
    WHERE b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
           OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL))
    GROUP BY 1, 2, 3, 4
),
-- Each customer's start month (the month of its first paid charge), for the customers who started in a month reported.
customer AS (
    SELECT m.account, m.provider, m.currency, min(m.month) FILTER (WHERE m.paid) AS start
    FROM money m
    GROUP BY 1, 2, 3
    HAVING min(m.month) FILTER (WHERE m.paid) BETWEEN (SELECT p.first_month FROM params p) AND (SELECT p.last_month FROM params p)
),
cohort AS (
    SELECT c.start, c.provider, c.currency, count(*) AS size FROM customer c GROUP BY 1, 2, 3
),
-- The cohort's net revenue per month from its start (money before a customer's start month is not the cohort's).
revenue AS (
    SELECT c.start, c.provider, c.currency, m.month, sum(m.net) AS net
    FROM money m JOIN customer c USING (account, provider, currency)
    WHERE m.month >= c.start
    GROUP BY 1, 2, 3, 4
),
-- Retained: the cohort's customers paying at a computed month's snapshot (a row of the shared movements with v > 0:
-- "Movements"), read only at the reported snapshots. This is the running sum of the customer's starts (`new`,
-- `reactivation`) and stops (`churn`) up to the snapshot, read directly.
retained AS (
    SELECT c.start, c.provider, c.currency, sn.month_start::timestamp AS month, count(*) AS retained
    FROM snapshot sn
    JOIN report_run_movement($1, $2, $3, $5) m ON m.n = sn.n
    JOIN customer c ON c.account = m.billing_account_id AND c.provider = m.provider AND c.currency = m.currency
    WHERE sn.reported AND m.v > 0 AND sn.month_start >= c.start
    GROUP BY 1, 2, 3, 4
),
-- Every cohort at every month from its start to the last month, running along its months: the cumulative net revenue
-- and the start month's; then only the months computed (every one of them in a run that computes all).
running AS (
    SELECT c.start, c.provider, c.currency, c.size, g.month, COALESCE(v.net, 0) AS net,
           sum(COALESCE(v.net, 0)) OVER w AS cumulative, first_value(COALESCE(v.net, 0)) OVER w AS start_net
    FROM cohort c CROSS JOIN params p
    CROSS JOIN LATERAL generate_series(c.start, p.last_month, interval '1 month') g(month)
    LEFT JOIN revenue v ON v.start = c.start AND v.provider = c.provider AND v.currency = c.currency AND v.month = g.month
    WINDOW w AS (PARTITION BY c.start, c.provider, c.currency ORDER BY g.month)
)
SELECT to_char(r.start, 'YYYY-MM') AS cohort_month, r.provider, r.currency,
       ((extract(year FROM r.month) - extract(year FROM r.start)) * 12
        + extract(month FROM r.month) - extract(month FROM r.start))::int AS months_since_start,
       to_char(r.month, 'YYYY-MM') AS month,
       r.size AS cohort_subscribers, COALESCE(t.retained, 0) AS retained_subscribers,
       round(COALESCE(t.retained, 0)::numeric / r.size, 6) AS subscriber_retention_rate,
       r.net::bigint AS net_revenue_micros, r.cumulative::bigint AS cumulative_net_revenue_micros,
       CASE WHEN r.start_net > 0 THEN round(r.net::numeric / r.start_net, 6) END AS revenue_retention_rate,
       report_half_even(r.cumulative, r.size)::bigint AS ltv_micros
FROM running r
JOIN snapshot sn ON sn.reported AND sn.month_start::timestamp = r.month
LEFT JOIN retained t ON t.start = r.start AND t.provider = r.provider AND t.currency = r.currency AND t.month = r.month
-- Bytewise (ASCII codes and names: the same order as the database's), so build-reports can merge stored months' cells
-- into this order.
ORDER BY r.start, r.provider COLLATE "C", r.currency COLLATE "C", r.month

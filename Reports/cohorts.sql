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
-- The month-end snapshots and who pays at each of them (the shared movements, filled once per run: one row per
-- customer and snapshot, v its MRR there, "Movements").
snapshot AS (
    SELECT * FROM report_run_snapshot($1, $2, $3, $5)
),
movement AS (
    SELECT * FROM report_run_movement($1, $2, $3, $5)
),
-- Who counts: not a test or sandbox purchase, no test row; an unclaimed purchase is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS account
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
),
-- Per customer (account, provider, currency) and month: its money (paid charges (amount > 0) in, refunds and
-- chargebacks (their negative amounts) out; one read of billing_transaction under the basis); and when it starts and
-- stops paying (the shared movements: at a snapshot where a run of paying snapshots begins, `new` or `reactivation`,
-- +1; at the snapshot after one ends, `churn`, -1), so that the customers paying at a month's snapshot are the sum of
-- those changes up to it.
activity AS (
    SELECT sub.provider, sub.account, b.currency_code AS currency, date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AS month,
           b.amount_micros AS net, b.event_type <> 'REFUNDED' AS paid, 0 AS paying_change
    FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
    WHERE b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
           OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL))
    UNION ALL
    SELECT m.provider, m.billing_account_id, m.currency, sn.month_start::timestamp, 0, false,
           CASE WHEN m.movement = 'churn' THEN -1 ELSE 1 END
    FROM movement m JOIN snapshot sn ON sn.n = m.n
    WHERE m.movement IN ('new', 'reactivation', 'churn')
),
-- One sort by customer (its text keys compared bytewise: the partitions need only equality): its start month (the
-- month of its first paid charge) on every row of it, and its first row.
started AS (
    SELECT a.*, min(a.month) FILTER (WHERE a.paid) OVER w AS start, row_number() OVER w AS row_no
    FROM activity a
    WINDOW w AS (PARTITION BY a.account, a.provider COLLATE "C", a.currency COLLATE "C")
),
-- Per cohort (the customers who started in a month reported) and month: its new members (each customer's first row),
-- net revenue and the change in its paying customers (a change before the start month, possible only when a customer
-- pays in a currency before it is charged in it, counts at the start month); then the cohort's size.
cell AS (
    SELECT s.start, s.provider, s.currency, GREATEST(s.month, s.start) AS month,
           count(*) FILTER (WHERE s.row_no = 1) AS joined, sum(s.net) FILTER (WHERE s.month >= s.start) AS net,
           sum(s.paying_change) AS paying_change
    FROM started s
    GROUP BY 1, 2, 3, 4
),
cohort AS (
    SELECT c.start, c.provider, c.currency, sum(c.joined)::bigint AS size
    FROM cell c CROSS JOIN params p
    WHERE c.start BETWEEN p.first_month AND p.last_month
    GROUP BY 1, 2, 3
),
-- Every cohort at every month from its start to the last month, with what happened then.
grid AS (
    SELECT c.start, c.provider, c.currency, c.size, m.month,
           COALESCE(v.paying_change, 0) AS paying_change, COALESCE(v.net, 0) AS net
    FROM cohort c CROSS JOIN params p
    CROSS JOIN LATERAL generate_series(c.start, p.last_month, interval '1 month') m(month)
    LEFT JOIN cell v ON v.start = c.start AND v.provider = c.provider AND v.currency = c.currency AND v.month = m.month
),
-- Running along each cohort's months: the customers paying at the snapshot (retained), the cumulative net revenue.
running AS (
    SELECT g.*, (sum(g.paying_change) OVER w)::bigint AS retained, sum(g.net) OVER w AS cumulative, first_value(g.net) OVER w AS start_net
    FROM grid g
    WINDOW w AS (PARTITION BY g.start, g.provider, g.currency ORDER BY g.month)
)
SELECT to_char(r.start, 'YYYY-MM') AS cohort_month, r.provider, r.currency,
       ((extract(year FROM r.month) - extract(year FROM r.start)) * 12
        + extract(month FROM r.month) - extract(month FROM r.start))::int AS months_since_start,
       to_char(r.month, 'YYYY-MM') AS month,
       r.size AS cohort_subscribers, r.retained AS retained_subscribers,
       round(r.retained::numeric / r.size, 6) AS subscriber_retention_rate,
       r.net::bigint AS net_revenue_micros, r.cumulative::bigint AS cumulative_net_revenue_micros,
       CASE WHEN r.start_net > 0 THEN round(r.net::numeric / r.start_net, 6) END AS revenue_retention_rate,
       report_half_even(r.cumulative, r.size)::bigint AS ltv_micros
FROM running r
ORDER BY 1, 2, 3, 4

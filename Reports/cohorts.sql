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

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The month-end snapshots (`reported` marks the months whose cells are computed: every month asked for, or, in an
-- incremental run, the months it computes; Reports/README.md "Incremental runs").
snapshot AS (
    SELECT * FROM report_run_snapshot($1, $2, $3, $5)
),
-- Two ways to the cells, the same answer (Reports/README.md, "Cohorts in a night"):
--   * a run that computes several months, or has no earlier cells (a full run), reads the whole history: every
--     customer's rows sorted by customer (`started` below);
--   * a night (a run that computes the last month alone and reuses the cells of the months before it, handed to the
--     query in report_reused_cell_run) adds the last month to the month before's cells: each cohort's size and
--     cumulative net revenue there, and its paying customers, whom only the starts, restarts and stops at the last
--     month's snapshot change. Each customer's start month, and its net revenue in the last month when that is the
--     as-of month (every nightly run), come from one grouping of the run's first charges, which hold each
--     subscription's net revenue in the as-of month too ("The as-of month's net revenue beside the first charges");
--     a night whose last month is before the as-of month reads that month's charges and refunds by index.
-- The month before's cells of each cohort, with its start month's net revenue (empty but in a night).
previous AS MATERIALIZED (
    SELECT (c.cells->>'cohort_month' || '-01')::timestamp AS start, c.cells->>'provider' AS provider,
           c.cells->>'currency' AS currency, (c.cells->>'cohort_subscribers')::bigint AS size,
           (c.cells->>'retained_subscribers')::bigint AS retained,
           (c.cells->>'cumulative_net_revenue_micros')::numeric AS cumulative,
           (o.cells->>'net_revenue_micros')::numeric AS start_net
    FROM params p
    JOIN report_reused_cell_run c ON c.month = to_char(p.last_month - interval '1 month', 'YYYY-MM')
    JOIN report_reused_cell_run o ON o.month = c.cells->>'cohort_month'
         AND o.cells->>'cohort_month' = c.cells->>'cohort_month' AND o.cells->>'provider' = c.cells->>'provider'
         AND o.cells->>'currency' = c.cells->>'currency'
    WHERE (SELECT min(sn.month_start) FROM snapshot sn WHERE sn.reported) = p.last_month
),
-- Who counts: not a test or sandbox purchase, no test row; an unclaimed purchase is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS account
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
),
-- Every paid charge (amount > 0) and refund or chargeback (their negative amounts) of a customer (account, provider,
-- currency), by month: one read of billing_transaction under the basis.
activity AS (
    SELECT sub.provider, sub.account, b.currency_code AS currency, date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AS month,
           b.amount_micros AS net, b.event_type <> 'REFUNDED' AS paid
    FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
    WHERE b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
           OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL))
      AND NOT EXISTS (SELECT 1 FROM previous)
),
-- One sort by customer (its text keys compared bytewise: the partitions need only equality): its start month (the
-- month of its first paid charge) on every row of it, and its first row; only the customers who started in a month
-- reported are kept.
started AS MATERIALIZED (
    SELECT w.* FROM (
        SELECT a.*, min(a.month) FILTER (WHERE a.paid) OVER w AS start, row_number() OVER w AS row_no
        FROM activity a
        WINDOW w AS (PARTITION BY a.account, a.provider COLLATE "C", a.currency COLLATE "C")) w
    CROSS JOIN params p
    WHERE w.start BETWEEN p.first_month AND p.last_month
),
-- Per cohort and month from its start: its new members (each customer's first row) and net revenue (money before a
-- customer's start month is not the cohort's); then the cohort's size.
cell AS (
    SELECT s.start, s.provider, s.currency, GREATEST(s.month, s.start) AS month,
           count(*) FILTER (WHERE s.row_no = 1) AS joined, sum(s.net) FILTER (WHERE s.month >= s.start) AS net
    FROM started s
    GROUP BY 1, 2, 3, 4
),
cohort AS (
    SELECT c.start, c.provider, c.currency, sum(c.joined)::bigint AS size FROM cell c GROUP BY 1, 2, 3
),
-- Each customer of a cohort, once.
customer AS (
    SELECT s.account, s.provider, s.currency, s.start FROM started s WHERE s.row_no = 1
),
-- Retained: the cohort's customers paying at a month's snapshot ("Movements": a paying account has a movement row with
-- v > 0 there), read from the reported snapshots only: at the first of them, who pays there (+1 each); at each later
-- one, who starts (`new`, `reactivation`: +1) or stops (`churn`: -1) paying. Their running sum along a cohort's months
-- is who pays at the month's snapshot; a change before the cohort's start month (possible only when a customer pays in
-- a currency before it is charged in it) counts at the start month.
first_reported AS (
    SELECT min(sn.n) AS n FROM snapshot sn WHERE sn.reported
),
paying_change AS (
    SELECT c.start, c.provider, c.currency, GREATEST(sn.month_start::timestamp, c.start) AS month,
           sum(CASE WHEN m.n = f.n THEN 1 WHEN m.movement = 'churn' THEN -1 ELSE 1 END) AS change
    FROM first_reported f
    JOIN report_run_movement($1, $2, $3, $5) m ON m.n >= f.n
    JOIN snapshot sn ON sn.n = m.n
    JOIN customer c ON c.account = m.billing_account_id AND c.provider = m.provider AND c.currency = m.currency
    WHERE ((m.n = f.n AND m.v > 0) OR (m.n > f.n AND m.movement IN ('new', 'reactivation', 'churn')))
      AND NOT EXISTS (SELECT 1 FROM previous)
    GROUP BY 1, 2, 3, 4
),
-- Every cohort at every month from its start to the last month, running along its months: the customers paying at
-- the snapshot (retained), the cumulative net revenue and the start month's; then only the months computed (every
-- one of them in a run that computes all).
running AS (
    SELECT c.start, c.provider, c.currency, c.size, g.month, COALESCE(v.net, 0) AS net,
           sum(COALESCE(v.net, 0)) OVER w AS cumulative, first_value(COALESCE(v.net, 0)) OVER w AS start_net,
           (sum(COALESCE(t.change, 0)) OVER w)::bigint AS retained
    FROM cohort c CROSS JOIN params p
    CROSS JOIN LATERAL generate_series(c.start, p.last_month, interval '1 month') g(month)
    LEFT JOIN cell v ON v.start = c.start AND v.provider = c.provider AND v.currency = c.currency AND v.month = g.month
    LEFT JOIN paying_change t ON t.start = c.start AND t.provider = c.provider AND t.currency = c.currency AND t.month = g.month
    WINDOW w AS (PARTITION BY c.start, c.provider, c.currency ORDER BY g.month)
),
-- A night whose last month is not the as-of month: the last month's charges and refunds (by index: provider, event
-- type, instant) of the subscriptions that count, by customer. Every night: the movements at the last month's snapshot.
month_activity AS MATERIALIZED (
    SELECT s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS account, b.currency_code AS currency,
           b.amount_micros AS net
    FROM params p
    JOIN billing_transaction b ON b.effective_at >= p.last_month AT TIME ZONE 'UTC' AND b.effective_at < p.range_end
    JOIN subscription s ON s.id = b.subscription_id
    WHERE b.provider IN ('APPLE', 'GOOGLE', 'WEB')
      AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED', 'REFUNDED')
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND ((b.event_type <> 'REFUNDED' AND b.amount_micros > 0)
           OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL))
      AND NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
      AND EXISTS (SELECT 1 FROM previous) AND p.last_month <> date_trunc('month', p.as_of AT TIME ZONE 'UTC')
),
last_movement AS MATERIALIZED (
    SELECT m.provider, m.billing_account_id AS account, m.currency, m.v, m.movement
    FROM params p
    JOIN snapshot sn ON sn.month_start::timestamp = p.last_month
    JOIN report_run_movement($1, $2, $3, $5) m ON m.n = sn.n
    WHERE EXISTS (SELECT 1 FROM previous)
),
-- The customers a night touches, those with charges or refunds in the last month (with their net revenue there) and
-- those who start, restart or stop paying at its snapshot, each with its start month: the month of its earliest paid
-- charge over its account's subscriptions that count (NULL: none, and the customer is no cohort's). When the last month
-- is the as-of month (every nightly run), one grouping of the run's first charges (`report_run_first_charge`: per
-- subscription and currency, with its net revenue in the as-of month, NULL when it has no charge or refund there; the
-- stored ones of the subscriptions unchanged since the last store) gives both; otherwise the month's rows read above
-- are joined to them (Reports/README.md, "Cohorts in a night").
touched AS MATERIALIZED (
    SELECT f.provider, f.account, f.currency, sum(f.month_net) AS net, date_trunc('month', min(f.first_at) AT TIME ZONE 'UTC') AS start
    FROM params p CROSS JOIN report_run_first_charge($1, $5) f
    WHERE EXISTS (SELECT 1 FROM previous) AND p.last_month = date_trunc('month', p.as_of AT TIME ZONE 'UTC')
    GROUP BY 1, 2, 3
    HAVING bool_or(f.month_net IS NOT NULL)
        OR (f.provider, f.account, f.currency) IN (SELECT m.provider, m.account, m.currency FROM last_movement m
                                                   WHERE m.movement IN ('new', 'reactivation', 'churn'))
    UNION ALL
    SELECT t.provider, t.account, t.currency, t.net, date_trunc('month', min(f.first_at) AT TIME ZONE 'UTC') AS start
    FROM (SELECT c.provider, c.account, c.currency, sum(c.net) AS net
          FROM (SELECT a.provider, a.account, a.currency, a.net FROM month_activity a
                UNION ALL
                SELECT m.provider, m.account, m.currency, NULL FROM last_movement m
                WHERE m.movement IN ('new', 'reactivation', 'churn')) c
          CROSS JOIN params p
          WHERE p.last_month <> date_trunc('month', p.as_of AT TIME ZONE 'UTC')
          GROUP BY 1, 2, 3) t
    LEFT JOIN report_run_first_charge($1, $5) f ON f.account = t.account AND f.provider = t.provider AND f.currency = t.currency
    GROUP BY t.provider, t.account, t.currency, t.net
),
-- Per cohort, the last month's net revenue of its customers, and the change in who pays at its snapshot: +1 for a
-- start or restart, -1 for a stop (a cohort before the last month: added to the month before's paying customers), or
-- +1 for each paying there (the last month's own cohort). Only the movements that can count are joined to their
-- customers: the starts, restarts and stops, and the other paying ones of customers who start in the last month
-- (every other movement counts 0; a cohort missing here changes by 0).
night_net AS (
    SELECT t.start, t.provider, t.currency, sum(t.net) AS net FROM touched t GROUP BY 1, 2, 3
),
night_paying AS (
    SELECT t.start, t.provider, t.currency,
           sum(CASE WHEN t.start = p.last_month THEN (m.v > 0)::int
                    WHEN m.movement IN ('new', 'reactivation') THEN 1 WHEN m.movement = 'churn' THEN -1 ELSE 0 END) AS change
    FROM (SELECT m.provider, m.account, m.currency, m.v, m.movement FROM last_movement m
          WHERE m.movement IN ('new', 'reactivation', 'churn')
          UNION ALL
          SELECT m.provider, m.account, m.currency, m.v, m.movement FROM last_movement m
          WHERE m.movement NOT IN ('new', 'reactivation', 'churn') AND m.v > 0
            AND EXISTS (SELECT 1 FROM touched t CROSS JOIN params p
                        WHERE t.start = p.last_month AND t.provider = m.provider AND t.account = m.account
                          AND t.currency = m.currency)) m
    JOIN touched t USING (provider, account, currency) CROSS JOIN params p
    GROUP BY 1, 2, 3
),
-- The last month's cells: each earlier cohort's from the month before's; the last month's own cohort, its customers
-- those touched whose start month it is.
night AS (
    SELECT pr.start, pr.provider, pr.currency, pr.size, p.last_month AS month, COALESCE(n.net, 0) AS net,
           pr.cumulative + COALESCE(n.net, 0) AS cumulative, pr.start_net, pr.retained + COALESCE(c.change, 0) AS retained
    FROM previous pr CROSS JOIN params p
    LEFT JOIN night_net n ON n.start = pr.start AND n.provider = pr.provider AND n.currency = pr.currency
    LEFT JOIN night_paying c ON c.start = pr.start AND c.provider = pr.provider AND c.currency = pr.currency
    UNION ALL
    SELECT j.start, j.provider, j.currency, j.size, j.start, COALESCE(n.net, 0), COALESCE(n.net, 0), COALESCE(n.net, 0),
           COALESCE(c.change, 0)
    FROM (SELECT t.start, t.provider, t.currency, count(*) AS size
          FROM touched t CROSS JOIN params p WHERE t.start = p.last_month GROUP BY 1, 2, 3) j
    LEFT JOIN night_net n ON n.start = j.start AND n.provider = j.provider AND n.currency = j.currency
    LEFT JOIN night_paying c ON c.start = j.start AND c.provider = j.provider AND c.currency = j.currency
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
FROM (SELECT r.start, r.provider, r.currency, r.size, r.month, r.net, r.cumulative, r.start_net, r.retained FROM running r
      UNION ALL
      SELECT n.start, n.provider, n.currency, n.size, n.month, n.net, n.cumulative, n.start_net, n.retained FROM night n) r
JOIN snapshot sn ON sn.reported AND sn.month_start::timestamp = r.month
-- Bytewise (ASCII codes and names: the same order as the database's), so build-reports can merge stored months' cells
-- into this order.
ORDER BY r.start, r.provider COLLATE "C", r.currency COLLATE "C", r.month

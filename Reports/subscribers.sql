-- Subscribers by state: one row per month x provider x store product with any subscription counted at the month's
-- snapshot or at the previous one.
--
-- Columns: trialing_count, paying_count, grace_count, billing_retry_count, paused_count, cancelled_paid_through_count
-- (subscriptions in each state at the month's snapshot), active_count (their sum), starts_count (counted in this
-- product now, not at the previous snapshot), ends_count (counted in it at the previous snapshot, not now) and
-- net_change_count (starts - ends, so active = the previous month's active + net change). product_id is that of the
-- subscription's latest charge (a free trial's included); a subscription that changes product ends in the old one and
-- starts in the new one.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "Subscribers" and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The month-end snapshots (as build-reports filled them) and each counted subscription's state at each of them: the
-- schema's report_subscriber_state (SQL/migrations/0026_report_subscriber_state.sql; Reports/README.md "Subscribers").
snapshot AS (
    SELECT * FROM report_run_snapshot($1, $2, $3, $5)
),
-- Only the snapshots the reported months read: theirs and the one before (a start or an end is read against it), so a
-- run that reports only its last months (an incremental one) does not window every snapshot's states.
state AS (
    SELECT st.* FROM report_run_subscriber_state($1, $2, $3, $5) st
    WHERE st.n >= (SELECT min(sn.n) FROM snapshot sn WHERE sn.reported) - 1
),
-- Each subscription's snapshots in one product, with the neighbouring ones: a start when the previous snapshot is not
-- the one before; an end at the next snapshot when that one is missing. The partitions compare the product id
-- bytewise (they only need equality, the same in every collation), so the sort does not go through the locale.
run AS (
    SELECT st.*, lag(st.n) OVER w AS prev_n, lead(st.n) OVER w AS next_n
    FROM state st
    WINDOW w AS (PARTITION BY st.subscription_id, st.product_id COLLATE "C" ORDER BY st.n)
),
-- One pass over the windowed rows: per snapshot, provider and product, the counts at the snapshot and how many of
-- them end at the next one (ending_next_count; the rows of ended below).
counted AS (
    SELECT r.n, r.provider, r.product_id,
           count(*) FILTER (WHERE r.state = 'trialing') AS trialing_count,
           count(*) FILTER (WHERE r.state = 'paying') AS paying_count,
           count(*) FILTER (WHERE r.state = 'grace') AS grace_count,
           count(*) FILTER (WHERE r.state = 'billing_retry') AS billing_retry_count,
           count(*) FILTER (WHERE r.state = 'paused') AS paused_count,
           count(*) FILTER (WHERE r.state = 'cancelled_paid_through') AS cancelled_paid_through_count,
           count(*) AS active_count,
           count(*) FILTER (WHERE r.prev_n IS NULL OR r.prev_n < r.n - 1) AS starts_count,
           count(*) FILTER (WHERE r.next_n IS NULL OR r.next_n > r.n + 1) AS ending_next_count
    FROM run r
    GROUP BY r.n, r.provider, r.product_id
),
ended AS (
    SELECT c.n + 1 AS n, c.provider, c.product_id, c.ending_next_count AS ends_count
    FROM counted c
    WHERE c.ending_next_count > 0 AND c.n + 1 <= (SELECT max(s.n) FROM snapshot s)
)
SELECT sn.month, COALESCE(c.provider, e.provider) AS provider, COALESCE(c.product_id, e.product_id) AS product_id,
       COALESCE(c.trialing_count, 0) AS trialing_count, COALESCE(c.paying_count, 0) AS paying_count,
       COALESCE(c.grace_count, 0) AS grace_count, COALESCE(c.billing_retry_count, 0) AS billing_retry_count,
       COALESCE(c.paused_count, 0) AS paused_count, COALESCE(c.cancelled_paid_through_count, 0) AS cancelled_paid_through_count,
       COALESCE(c.active_count, 0) AS active_count, COALESCE(c.starts_count, 0) AS starts_count,
       COALESCE(e.ends_count, 0) AS ends_count, COALESCE(c.starts_count, 0) - COALESCE(e.ends_count, 0) AS net_change_count
FROM counted c
FULL JOIN ended e ON e.n = c.n AND e.provider = c.provider AND COALESCE(e.product_id, '') = COALESCE(c.product_id, '')
JOIN snapshot sn ON sn.n = COALESCE(c.n, e.n)
WHERE sn.reported
ORDER BY sn.month, 2, 3 NULLS FIRST

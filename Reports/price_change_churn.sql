-- Price-change churn: what each price change did to the subscribers it reached, against those it did not reach.
--
-- One row per price-change cohort: provider x product x region x currency x old price -> new price x mode
-- (PRICE_INCREASE = consent needed: Apple consent / Google opt-in; OPT_OUT_PRICE_INCREASE = Google opt-out;
-- PRICE_DECREASE). Definitions in Reports/README.md, section "Price-change churn".
--
-- Parameters (always bound, in this order; cast in the params CTE):
--   $1  timestamptz  as_of               nothing effective after it is read; windows are capped at it
--   $2  timestamptz  first_month         cohorts whose first notice (or first new-price charge) falls in this month
--   $3  timestamptz  last_month          ... up to this month (inclusive, clamped to the as-of month)
--   $4  text         reporting_currency  not used: every figure is in the cohort's own currency
--   $5  text         basis               'corrected' (every row effective <= as_of) or 'known' (and recorded_at <= as_of)
--
-- Sources: subscription_price_change (which subscriber was told of which change; product, region, currency, prices,
-- mode, announced_at) and billing_transaction (the history rows: consent, charges, endings with their reason);
-- subscription only to leave test purchases out; never a current-status column.
-- Definitions (per cohort; a subscriber counts once per cohort):
--   * affected: told of the change (a subscription_price_change row of the cohort announced by as_of), or, for a
--     decrease applied without notice (Apple), charged the new price on a renewal whose previous paid charge of the
--     same product, country and currency was the old price. start_at = when told, else that renewal.
--   * consented: a PRICE_CHANGE_ACCEPTED row (Apple consent, Google opt-in confirmation) at or after start_at.
--   * applied: a renewal or recovery charged the new price at or after start_at.
--   * target: the renewal the change was aimed at (expected_charge_at, else the applying renewal); window: start_at to
--     target + one billing period of the subscriber's plan, capped at as_of.
--   * churned_due_to_change: EXPIRED with reason PRICE_INCREASE_NOT_CONSENTED at or after start_at (Apple
--     expirationIntent 3; Google's system cancellation of an unconfirmed opt-in increase, dated when the paid period
--     ended); other_churn: the subscriber's first other ending (EXPIRED for another reason, REFUNDED, REVOKED) inside
--     the window.
--   * baseline: subscribers of the same provider and product in OTHER countries (never affected by this cohort),
--     paying (latest charge, of any product, is of this product, paid, its period running, no ending, grace, hold or
--     pause since) at the cohort's window start (its first start_at); baseline
--     churn = those whose first ending falls between the window start and the cohort's window end (the latest target +
--     one period, capped at as_of).
--   * rates: cohort_churn_rate = (churned_due_to_change + other_churn) / affected; baseline_churn_rate =
--     baseline_churned / baseline_peers; excess_churn_rate = cohort - baseline, with a 95% Newcombe hybrid score
--     interval (Wilson score intervals of each proportion, z = 1.959964) in excess_churn_ci_low_rate /
--     excess_churn_ci_high_rate; 6 decimals; NULL when a denominator is 0.
--   * mrr_lost_micros: monthly-normalised old price of change-caused churn; mrr_gained_micros: monthly-normalised
--     (new - old) of every applied change (negative for a decrease); net_mrr_micros = gained - lost. Each sums exact
--     twelfths of a micro and is rounded half to even once.

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The rows as known on the chosen basis, of every subscription: read from a row of `hist` (whose subscription is
-- therefore no test purchase) for its own subscription's rows, by index. Provider and event type stay the schema's
-- enums (compared, not printed: a text copy of every row's costs a conversion each); text where a cohort is named.
own AS NOT MATERIALIZED (
    SELECT b.subscription_id, b.id, b.provider, b.event_type, b.effective_at,
           b.amount_micros, b.currency_code, b.country_code, b.product_id, b.reason, b.billing_period,
           CASE b.billing_period
               WHEN 'P1W' THEN 52 WHEN 'P2W' THEN 26 WHEN 'P4W' THEN 13 WHEN 'P1M' THEN 12 WHEN 'P2M' THEN 6
               WHEN 'P3M' THEN 4 WHEN 'P6M' THEN 2 WHEN 'P1Y' THEN 1 END AS factor,
           b.period_end_at,
           b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
               AND b.amount_micros > 0 AS is_charge,
           b.event_type IN ('EXPIRED', 'REFUNDED', 'REVOKED') AS is_end
    FROM billing_transaction b, params p
    WHERE b.effective_at <= p.as_of AND (p.basis = 'corrected' OR b.recorded_at <= p.as_of)
),
-- A test purchase (any of its rows is_test, whatever the basis) counts nowhere: its subscriptions, read once.
test_purchase AS MATERIALIZED (
    SELECT DISTINCT t.subscription_id FROM billing_transaction t WHERE t.is_test
),
-- The history rows read: as known on the chosen basis, test purchases left out. Written as NOT IN (subscription_id is
-- never NULL) so that each row is tested against the few test subscriptions hashed once, in the scan: as an anti-join
-- PostgreSQL sorted every charge by subscription for a merge and then again for the window below.
hist AS NOT MATERIALIZED (
    SELECT o.* FROM own o WHERE o.subscription_id NOT IN (SELECT t.subscription_id FROM test_purchase t)
),
-- Every paid charge with its subscription's next paid charge (in the order effective_at, id), for the baseline, and,
-- for a renewal or recovery that charged less than the previous paid charge, of the same product and currency, that
-- charge's amount (decreased_from), for the untold decreases: one sorted pass serves both.
charge AS MATERIALIZED (
    SELECT h.subscription_id, h.provider, h.effective_at, h.amount_micros, h.currency_code, h.country_code, h.product_id,
           h.period_end_at, lead(h.effective_at) OVER w AS next_charge_at,
           CASE WHEN h.event_type IN ('RENEWED', 'RECOVERED') AND lag(h.product_id) OVER w = h.product_id
                     AND lag(h.currency_code) OVER w = h.currency_code AND h.amount_micros < lag(h.amount_micros) OVER w
                THEN lag(h.amount_micros) OVER w END AS decreased_from
    FROM hist h WHERE h.is_charge
    -- (ROWS: lead and lag ignore the frame, and ROWS spares the default RANGE frame's peer test of every row)
    WINDOW w AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.id ROWS UNBOUNDED PRECEDING)
),
-- The rows other than charges that the report reads: the notices, and the rows that disrupt paying (an ending, grace,
-- hold or pause), for the baseline.
event AS MATERIALIZED (
    SELECT h.subscription_id, h.id, h.provider, h.event_type, h.effective_at, h.amount_micros, h.currency_code,
           h.country_code, h.is_end
    FROM hist h
    WHERE h.event_type IN ('PRICE_CHANGE_PENDING', 'PRICE_CHANGE_CANCELED', 'EXPIRED', 'REFUNDED', 'REVOKED',
                           'ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED')
),
-- The changes the history knows (one per provider, product, region, currency, old -> new price and mode).
known_change AS (
    SELECT DISTINCT c.provider::text AS provider, c.product_id, c.region_code, c.currency_code, c.old_amount_micros,
           c.new_amount_micros, c.mode::text AS mode
    FROM subscription_price_change c, params p
    WHERE c.old_amount_micros IS NOT NULL AND c.product_id IS NOT NULL AND c.announced_at <= p.as_of
      AND (p.basis = 'corrected' OR c.created_at <= p.as_of)
),
-- The store's notices: PRICE_CHANGE_PENDING (amount = the new price), and PRICE_CHANGE_CANCELED without a price (a
-- notice that found auto-renew already off, Google), each with the product billed then: the latest charge row with a
-- product (a free trial's included) at or before it, by instant then row id.
notice AS MATERIALIZED (
    SELECT n.subscription_id, n.id, n.provider, n.event_type, n.effective_at, n.amount_micros, n.currency_code,
           n.country_code, l.product_id, l.period_end_at, l.billing_period, l.amount_micros AS billed_micros,
           l.currency_code AS billed_currency
    FROM event n
    JOIN LATERAL (
        SELECT h.product_id, h.period_end_at, h.billing_period, h.amount_micros, h.currency_code FROM own h
        WHERE h.subscription_id = n.subscription_id AND h.product_id IS NOT NULL AND h.effective_at <= n.effective_at
          AND h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
        ORDER BY h.effective_at DESC, h.id DESC LIMIT 1) l ON true
    WHERE n.event_type = 'PRICE_CHANGE_PENDING' OR (n.event_type = 'PRICE_CHANGE_CANCELED' AND n.amount_micros IS NULL)
),
-- A change no subscription_price_change row names (its only notices reached subscribers in a free trial, who have no
-- old price): known from its earliest notice, with the old price the latest paid price of that product, country and
-- currency (other than the new price) before it, and the mode a consent increase (PRICE_INCREASE) or a decrease.
inferred_change AS (
    SELECT DISTINCT ON (n.provider::text, n.product_id, n.country_code, n.currency_code, n.amount_micros)
           n.provider::text AS provider, n.product_id, n.country_code AS region_code, n.currency_code, o.amount_micros AS old_amount_micros,
           n.amount_micros AS new_amount_micros,
           CASE WHEN n.amount_micros < o.amount_micros THEN 'PRICE_DECREASE' ELSE 'PRICE_INCREASE' END AS mode
    FROM notice n
    JOIN LATERAL (
        SELECT h.amount_micros FROM hist h
        WHERE h.provider = n.provider AND h.product_id = n.product_id AND h.country_code = n.country_code
          AND h.currency_code = n.currency_code AND h.is_charge AND h.amount_micros <> n.amount_micros
          AND h.effective_at <= n.effective_at
        ORDER BY h.effective_at DESC, h.id DESC LIMIT 1) o ON true
    WHERE n.event_type = 'PRICE_CHANGE_PENDING'
      AND NOT EXISTS (SELECT 1 FROM known_change k WHERE k.provider = n.provider::text AND k.product_id = n.product_id
                        AND k.region_code = n.country_code AND k.currency_code = n.currency_code
                        AND k.new_amount_micros = n.amount_micros)
    ORDER BY n.provider::text, n.product_id, n.country_code, n.currency_code, n.amount_micros, n.effective_at, n.id
),
change AS (
    SELECT * FROM known_change UNION SELECT * FROM inferred_change
),
-- Told: a notice (amount = the new price) of a known change of the product billed then in the subscriber's country;
-- the earliest notice per change. The target is the renewal after the notice: that charge's period end, or one period
-- later when the notice came after it (a renewal the history lacks). A notice without a price is the change of that
-- product, region and currency whose old price the subscriber pays.
told AS (
    SELECT DISTINCT ON (n.subscription_id, k.provider, k.product_id, k.region_code, k.currency_code, k.old_amount_micros,
                        k.new_amount_micros, k.mode)
           n.subscription_id, k.provider, k.product_id, k.region_code, k.currency_code, k.old_amount_micros,
           k.new_amount_micros, k.mode, n.effective_at AS start_at,
           CASE WHEN n.period_end_at > n.effective_at THEN n.period_end_at
                ELSE n.period_end_at + n.billing_period::interval END AS target_at
    FROM notice n
    JOIN change k ON k.provider = n.provider::text AND k.product_id = n.product_id AND k.region_code = n.country_code
                       AND k.currency_code = COALESCE(n.currency_code, n.billed_currency)
                       AND (k.new_amount_micros = n.amount_micros
                            OR (n.amount_micros IS NULL AND k.old_amount_micros = n.billed_micros))
    ORDER BY n.subscription_id, k.provider, k.product_id, k.region_code, k.currency_code, k.old_amount_micros,
             k.new_amount_micros, k.mode, n.effective_at
),
-- Decreases applied without notice: a renewal at a lower price than the previous charge of the same product.
untold AS (
    SELECT DISTINCT ON (ch.subscription_id, ch.product_id, ch.country_code, ch.currency_code, ch.decreased_from, ch.amount_micros)
           ch.subscription_id, ch.provider::text AS provider, ch.product_id, ch.country_code AS region_code, ch.currency_code,
           ch.decreased_from AS old_amount_micros, ch.amount_micros AS new_amount_micros, 'PRICE_DECREASE' AS mode,
           ch.effective_at AS start_at, ch.effective_at AS target_at
    FROM charge ch
    WHERE ch.decreased_from IS NOT NULL
    ORDER BY ch.subscription_id, ch.product_id, ch.country_code, ch.currency_code, ch.decreased_from, ch.amount_micros,
             ch.effective_at
),
-- Members: every told row, and an untold decrease only when no told row has its subscriber, currency, old and new
-- price. Written as a window over both (none of those four is ever NULL in either) rather than NOT EXISTS: the CTEs'
-- row estimates are tiny, so PostgreSQL ran the anti-join as a nested loop, told × untold (18 s at 200k subscriptions).
member AS (
    SELECT y.subscription_id, y.provider, y.product_id, y.region_code, y.currency_code, y.old_amount_micros,
           y.new_amount_micros, y.mode, y.start_at, y.target_at, y.was_told
    FROM (
        SELECT x.*, bool_or(x.was_told) OVER (PARTITION BY x.subscription_id, x.currency_code, x.old_amount_micros,
                                                           x.new_amount_micros) AS any_told
        FROM (SELECT t.*, true AS was_told FROM told t
              UNION ALL
              SELECT u.*, false FROM untold u) x) y
    WHERE y.was_told OR NOT y.any_told
),
-- Each member with its outcome.
outcome AS (
    SELECT m.*, pl.factor, pl.billing_period,
           COALESCE(m.target_at, ap.effective_at) AS aimed_at,
           LEAST((SELECT as_of FROM params),
                 COALESCE(m.target_at, ap.effective_at, m.start_at) + COALESCE(pl.billing_period, 'P1M')::interval) AS window_end,
           EXISTS (SELECT 1 FROM own a WHERE a.subscription_id = m.subscription_id AND a.event_type = 'PRICE_CHANGE_ACCEPTED'
                   AND a.effective_at >= m.start_at) AS consented,
           ap.effective_at IS NOT NULL AS applied,
           pc.effective_at IS NOT NULL AS churned_due_to_change,
           en.effective_at AS ended_at, en.reason AS end_reason
    FROM member m
    -- The plan's billing period: the latest charge (a free trial's included) at or before start_at.
    LEFT JOIN LATERAL (
        SELECT h.factor, h.billing_period FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.factor IS NOT NULL AND h.effective_at <= m.start_at
          AND h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
        ORDER BY h.effective_at DESC, h.id DESC LIMIT 1) pl ON true
    LEFT JOIN LATERAL (
        SELECT h.effective_at FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.is_charge AND h.event_type IN ('RENEWED', 'RECOVERED')
          AND h.amount_micros = m.new_amount_micros AND h.currency_code = m.currency_code AND h.effective_at >= m.start_at
        ORDER BY h.effective_at, h.id LIMIT 1) ap ON true
    LEFT JOIN LATERAL (
        SELECT h.effective_at FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.event_type = 'EXPIRED'
          AND h.reason = 'PRICE_INCREASE_NOT_CONSENTED' AND h.effective_at >= m.start_at
        ORDER BY h.effective_at, h.id LIMIT 1) pc ON true
    LEFT JOIN LATERAL (
        SELECT h.effective_at, h.reason FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.is_end AND h.effective_at >= m.start_at
          AND h.reason IS DISTINCT FROM 'PRICE_INCREASE_NOT_CONSENTED'
        ORDER BY h.effective_at, h.id LIMIT 1) en ON true
),
cohort AS (
    SELECT row_number() OVER () AS cohort_no,
           o.provider, o.product_id, o.region_code, o.currency_code, o.old_amount_micros, o.new_amount_micros, o.mode,
           min(o.start_at) AS window_start,
           LEAST((SELECT as_of FROM params), max(o.aimed_at + COALESCE(o.billing_period, 'P1M')::interval)) AS window_end,
           count(*) AS affected_count,
           count(*) FILTER (WHERE o.was_told) AS notified_count,
           count(*) FILTER (WHERE o.consented) AS consented_count,
           count(*) FILTER (WHERE o.applied) AS applied_count,
           count(*) FILTER (WHERE o.churned_due_to_change) AS churned_due_to_change_count,
           count(*) FILTER (WHERE NOT o.churned_due_to_change AND o.ended_at <= o.window_end) AS other_churn_count,
           COALESCE(sum(o.old_amount_micros * o.factor) FILTER (WHERE o.churned_due_to_change), 0) AS lost_twelfths,
           COALESCE(sum((o.new_amount_micros - o.old_amount_micros) * o.factor) FILTER (WHERE o.applied), 0) AS gained_twelfths
    FROM outcome o
    GROUP BY o.provider, o.product_id, o.region_code, o.currency_code, o.old_amount_micros, o.new_amount_micros, o.mode
),
disruption AS (
    SELECT e.subscription_id, e.effective_at, e.is_end FROM event e
    WHERE e.is_end OR e.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED')
),
-- Baseline candidates: same provider, other countries, paying at the cohort's window start for its product (the latest
-- charge of any product is of the cohort's: a subscriber who moved to another plan is not a peer). The latest charge at
-- the window start is the one whose span [effective_at, next_charge_at) holds it: one per subscription and cohort.
candidate AS (
    SELECT c.cohort_no, c.window_start, c.window_end, l.subscription_id, l.effective_at AS charged_at
    FROM cohort c
    JOIN charge l ON l.provider = c.provider::billing_provider AND l.product_id COLLATE "C" = c.product_id
                     AND l.effective_at <= c.window_start
                     AND (l.next_charge_at IS NULL OR l.next_charge_at > c.window_start)
                     AND l.period_end_at > c.window_start
                     AND l.country_code IS DISTINCT FROM c.region_code
    WHERE
      -- Implied by the join (the charge's period holds some cohort's window start), tested first so that only the
      -- charges around the window starts are sorted for the join, not the whole history's.
      l.period_end_at > (SELECT min(w.window_start) FROM cohort w) AND l.effective_at <= (SELECT max(w.window_start) FROM cohort w)
      AND
      -- Not a member of this cohort. (Written as NOT IN over the members' complete keys so that PostgreSQL hashes them
      -- once instead of scanning every member for every peer; a key with a NULL matches no one, as in an equality.)
      (c.provider IS NULL OR c.product_id IS NULL OR c.currency_code IS NULL OR c.old_amount_micros IS NULL
           OR c.new_amount_micros IS NULL
           OR (l.subscription_id, c.provider, c.product_id, c.currency_code, c.old_amount_micros, c.new_amount_micros) NOT IN (
               SELECT m.subscription_id, m.provider, m.product_id, m.currency_code, m.old_amount_micros, m.new_amount_micros
               FROM member m
               WHERE m.product_id IS NOT NULL AND m.currency_code IS NOT NULL AND m.old_amount_micros IS NOT NULL
                 AND m.new_amount_micros IS NOT NULL AND m.provider IS NOT NULL AND m.subscription_id IS NOT NULL))
),
-- Peers: the candidates with no ending, grace, hold or pause strictly after their latest charge up to the window
-- start. A peer churned when its first ending at or after the window start falls at or before the window end (with
-- nothing between its latest charge and the window start, its first ending after that charge, or at or after it when
-- the charge is at the window start itself). Both read from the candidate's disruptions in one join, not a search per
-- candidate.
peer AS (
    SELECT a.cohort_no,
           COALESCE(bool_or(d.is_end AND d.effective_at >= a.window_start AND d.effective_at <= a.window_end), false)
               AS churned
    FROM candidate a
    LEFT JOIN disruption d ON d.subscription_id = a.subscription_id AND d.effective_at >= a.charged_at
                              AND d.effective_at <= GREATEST(a.window_start, a.window_end)
    GROUP BY a.cohort_no, a.subscription_id
    HAVING NOT COALESCE(bool_or(d.effective_at > a.charged_at AND d.effective_at <= a.window_start), false)
),
baseline AS (
    SELECT p.cohort_no, count(*) AS peers, count(*) FILTER (WHERE p.churned) AS churned
    FROM peer p
    GROUP BY p.cohort_no
),
-- Wilson score bounds (z = 1.959964) of each proportion.
rated AS (
    SELECT c.*, COALESCE(b.peers, 0) AS baseline_peers, COALESCE(b.churned, 0) AS baseline_churned,
           w1.p AS p1, w1.lo AS lo1, w1.hi AS hi1, w2.p AS p2, w2.lo AS lo2, w2.hi AS hi2
    FROM cohort c
    -- (a cohort with a NULL in its key has no baseline, as when the baseline was joined on the key)
    LEFT JOIN baseline b ON b.cohort_no = c.cohort_no AND c.provider IS NOT NULL AND c.product_id IS NOT NULL
                            AND c.region_code IS NOT NULL AND c.currency_code IS NOT NULL
                            AND c.old_amount_micros IS NOT NULL AND c.new_amount_micros IS NOT NULL AND c.mode IS NOT NULL
    CROSS JOIN LATERAL (SELECT (c.churned_due_to_change_count + c.other_churn_count)::numeric AS x, c.affected_count::numeric AS n) a1
    CROSS JOIN LATERAL (SELECT COALESCE(b.churned, 0)::numeric AS x, COALESCE(b.peers, 0)::numeric AS n) a2
    CROSS JOIN LATERAL (
        SELECT a1.x / NULLIF(a1.n, 0) AS p,
               (a1.x + 1.920729) / NULLIF(a1.n + 3.841459, 0)
                   - 1.959964 * sqrt(a1.x * (a1.n - a1.x) / NULLIF(a1.n, 0) + 0.960365) / NULLIF(a1.n + 3.841459, 0) AS lo,
               (a1.x + 1.920729) / NULLIF(a1.n + 3.841459, 0)
                   + 1.959964 * sqrt(a1.x * (a1.n - a1.x) / NULLIF(a1.n, 0) + 0.960365) / NULLIF(a1.n + 3.841459, 0) AS hi) w1
    CROSS JOIN LATERAL (
        SELECT a2.x / NULLIF(a2.n, 0) AS p,
               (a2.x + 1.920729) / NULLIF(a2.n + 3.841459, 0)
                   - 1.959964 * sqrt(a2.x * (a2.n - a2.x) / NULLIF(a2.n, 0) + 0.960365) / NULLIF(a2.n + 3.841459, 0) AS lo,
               (a2.x + 1.920729) / NULLIF(a2.n + 3.841459, 0)
                   + 1.959964 * sqrt(a2.x * (a2.n - a2.x) / NULLIF(a2.n, 0) + 0.960365) / NULLIF(a2.n + 3.841459, 0) AS hi) w2
    WHERE date_trunc('month', c.window_start AT TIME ZONE 'UTC') BETWEEN (SELECT first_month FROM params)
                                                                     AND (SELECT last_month FROM params)
),
-- twelfths of a micro -> micros, half to even, once.
money AS (
    SELECT r.*, (SELECT CASE WHEN 2 * (t - 12 * q) > 12 THEN q + 1 WHEN 2 * (t - 12 * q) = 12 THEN q + (q % 2 + 2) % 2 ELSE q END
                 FROM (SELECT r.lost_twelfths AS t, floor(r.lost_twelfths / 12.0)::numeric AS q) z) AS lost,
                (SELECT CASE WHEN 2 * (t - 12 * q) > 12 THEN q + 1 WHEN 2 * (t - 12 * q) = 12 THEN q + (q % 2 + 2) % 2 ELSE q END
                 FROM (SELECT r.gained_twelfths AS t, floor(r.gained_twelfths / 12.0)::numeric AS q) z) AS gained
    FROM rated r
)
SELECT m.provider, COALESCE(m.product_id, '') AS product_id, COALESCE(m.region_code, '') AS region, m.currency_code AS currency,
       m.old_amount_micros AS old_price_micros, m.new_amount_micros AS new_price_micros, m.mode,
       to_char(m.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS window_start,
       to_char(m.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS window_end,
       m.affected_count::bigint AS affected_count, m.notified_count::bigint AS notified_count,
       m.consented_count::bigint AS consented_count, m.applied_count::bigint AS applied_count,
       m.churned_due_to_change_count::bigint AS churned_due_to_change_count, m.other_churn_count::bigint AS other_churn_count,
       m.baseline_peers::bigint AS baseline_peers_count, m.baseline_churned::bigint AS baseline_churned_count,
       round(m.p1, 6) AS cohort_churn_rate, round(m.p2, 6) AS baseline_churn_rate, round(m.p1 - m.p2, 6) AS excess_churn_rate,
       round(m.p1 - m.p2 - sqrt((m.p1 - m.lo1) ^ 2 + (m.hi2 - m.p2) ^ 2), 6) AS excess_churn_ci_low_rate,
       round(m.p1 - m.p2 + sqrt((m.hi1 - m.p1) ^ 2 + (m.p2 - m.lo2) ^ 2), 6) AS excess_churn_ci_high_rate,
       m.lost::bigint AS mrr_lost_micros, m.gained::bigint AS mrr_gained_micros, (m.gained - m.lost)::bigint AS net_mrr_micros
FROM money m
ORDER BY m.provider, product_id, region, m.currency_code, m.old_amount_micros, m.new_amount_micros, m.mode

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
-- mode, announced_at) and billing_transaction (the history rows: consent, charges, endings with their reason), read per
-- subscription by the schema's functions (migration 0059: report_price_change_notice, report_price_change and
-- report_price_change_fact hold the definitions below, step by step) and grouped here; never a current-status column.
-- Reports/README.md, "Stored price-change facts".
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
-- The memberships with their outcomes, one row per subscriber and cohort (migration 0059: per subscription, stored
-- beside the spans; the functions hold the definitions above), and each one's window end.
outcome AS (
    SELECT m.*,
           LEAST((SELECT as_of FROM params), COALESCE(m.aimed_at, m.start_at) + COALESCE(m.billing_period, 'P1M')::interval)
               AS window_end
    FROM report_run_price_change_member($1, $5) m
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
-- Peers: at the cohort's window start, subscribers paying for its product (the latest charge of any product is of the
-- cohort's: a subscriber who moved to another plan is not a peer) with nothing disrupting it since that charge, of
-- the same provider, in other countries, not members of this cohort (`report_run_price_change_peer`: each
-- subscription's state at each window start, with its first ending from there). A peer churned when that ending falls
-- at or before the window end. (The members excluded as NOT IN over their complete keys: PostgreSQL hashes them once;
-- a key with a NULL matches no one, as in an equality.)
peer AS (
    SELECT c.cohort_no, COALESCE(s.first_end_at <= c.window_end, false) AS churned
    FROM cohort c
    JOIN report_run_price_change_peer($1, $5) s
      ON s.window_start = c.window_start AND s.provider = c.provider AND s.product_id COLLATE "C" = c.product_id
         AND s.country_code IS DISTINCT FROM c.region_code
    WHERE c.provider IS NULL OR c.product_id IS NULL OR c.currency_code IS NULL OR c.old_amount_micros IS NULL
       OR c.new_amount_micros IS NULL
       OR (s.subscription_id, c.provider, c.product_id, c.currency_code, c.old_amount_micros, c.new_amount_micros) NOT IN (
           SELECT m.subscription_id, m.provider, m.product_id, m.currency_code, m.old_amount_micros, m.new_amount_micros
           FROM outcome m
           WHERE m.product_id IS NOT NULL AND m.currency_code IS NOT NULL AND m.old_amount_micros IS NOT NULL
             AND m.new_amount_micros IS NOT NULL AND m.provider IS NOT NULL AND m.subscription_id IS NOT NULL)
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

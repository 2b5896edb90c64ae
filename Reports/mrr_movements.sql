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
-- The history rows read: effective by the as-of instant; under basis 'known' also recorded by then.
history AS (
    SELECT b.subscription_id, b.id, b.event_type, b.effective_at, b.amount_micros, b.currency_code, b.country_code,
           b.product_id, b.plan_id, b.billing_period, b.period_end_at
    FROM billing_transaction b, params p
    WHERE b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
),
-- Monthly twelfths of an ISO billing period (whole twelfths: P1W is 52/12 of a month, P1Y 1/12).
period_factor (billing_period, factor) AS (
    VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1)
),
-- Month-end snapshots from the first month with history (reactivation looks back that far) to the last month;
-- `reported` marks the months asked for. A snapshot is the month's last millisecond, or the as-of instant.
snapshot AS (
    SELECT to_char(m, 'YYYY-MM') AS month, m::date AS month_start, (m >= p.first_month) AS reported,
           LEAST((m + interval '1 month' - interval '1 millisecond') AT TIME ZONE 'UTC', p.as_of) AS at,
           row_number() OVER (ORDER BY m) AS n
    FROM params p,
         generate_series(LEAST(p.first_month, COALESCE((SELECT date_trunc('month', min(h.effective_at) AT TIME ZONE 'UTC')
                                                         FROM history h), p.first_month)),
                         p.last_month, interval '1 month') m
),
-- Who counts: subscriptions that are not test or sandbox purchases (no history row of theirs is a test row).
-- An unclaimed purchase (no billing account yet) is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS billing_account_id
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
),
-- Charges: a paid period bought at a price (a free trial is a charge of 0). Contribution = amount x the whole
-- number of monthly twelfths of its ISO billing period, i.e. twelfths of a micro, exact.
charge AS (
    SELECT h.subscription_id, h.effective_at, h.id, h.event_type, h.period_end_at, h.currency_code, h.country_code,
           h.product_id, h.plan_id, h.billing_period, h.amount_micros * f.factor AS twelfths
    FROM history h JOIN subscriber USING (subscription_id) LEFT JOIN period_factor f USING (billing_period)
    WHERE h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
      AND h.amount_micros IS NOT NULL AND h.period_end_at IS NOT NULL
),
-- The rows that set what a subscription contributes from their instant on:
--   CHARGE  its twelfths until its period ends (half-open);
--   GRACE   still paying, at the renewal being retried: the RECOVERED charge that ends the grace when there is one,
--           else the grace row's amount (the store's renewal price) over the latest charge's billing period, else the
--           latest paid charge; product, plan and country from the charge it is priced by;
--   OFF     on hold, paused, expired, revoked, refunded: nothing. (CANCELED = auto-renew off changes nothing.)
-- (The charges around a grace row are looked up in billing_transaction under the same filters as `charge`.)
state AS (
    SELECT subscription_id, effective_at, id, 'CHARGE' AS kind, period_end_at, currency_code, country_code, product_id,
           plan_id, billing_period, twelfths
    FROM charge
    UNION ALL
    SELECT g.subscription_id, g.effective_at, g.id, 'GRACE', NULL,
           COALESCE(n.currency_code, g.currency_code, c.currency_code),
           COALESCE(n.country_code, l.country_code, g.country_code), COALESCE(n.product_id, l.product_id, g.product_id),
           COALESCE(n.plan_id, l.plan_id, g.plan_id), COALESCE(n.billing_period, l.billing_period, g.billing_period),
           COALESCE(n.twelfths, g.amount_micros * l.factor, c.twelfths)
    FROM history g JOIN subscriber USING (subscription_id) CROSS JOIN params p
    LEFT JOIN LATERAL (
        SELECT b.currency_code, b.amount_micros * f.factor AS twelfths
        FROM billing_transaction b JOIN period_factor f USING (billing_period)
        WHERE b.subscription_id = g.subscription_id AND b.effective_at <= g.effective_at
          AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
          AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
          AND b.amount_micros > 0 AND b.period_end_at IS NOT NULL
        ORDER BY b.effective_at DESC, b.id DESC LIMIT 1) c ON true
    LEFT JOIN LATERAL (
        SELECT f.factor, b.country_code, b.product_id, b.plan_id, b.billing_period
        FROM billing_transaction b LEFT JOIN period_factor f USING (billing_period)
        WHERE b.subscription_id = g.subscription_id AND b.effective_at <= g.effective_at
          AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
          AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
          AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
        ORDER BY b.effective_at DESC, b.id DESC LIMIT 1) l ON true
    LEFT JOIN LATERAL (
        SELECT n.currency_code, n.country_code, n.product_id, n.plan_id, n.billing_period, n.amount_micros * f.factor AS twelfths
        FROM (SELECT b.* FROM billing_transaction b
              WHERE b.subscription_id = g.subscription_id AND b.effective_at > g.effective_at AND b.effective_at <= p.as_of
                AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
                AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
              ORDER BY b.effective_at, b.id LIMIT 1) n
        LEFT JOIN period_factor f USING (billing_period)
        WHERE n.event_type = 'RECOVERED') n ON true
    WHERE g.event_type = 'ENTERED_GRACE_PERIOD'
    UNION ALL
    SELECT h.subscription_id, h.effective_at, h.id, 'OFF', NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM history h JOIN subscriber USING (subscription_id)
    WHERE h.event_type IN ('ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED')
),
-- Each state row holds until the next one (at one instant a stop row wins over a charge, then the larger id).
span AS (
    SELECT s.*, lead(s.effective_at) OVER (PARTITION BY s.subscription_id
                                           ORDER BY s.effective_at, (s.kind = 'CHARGE') DESC, s.id) AS next_at
    FROM state s
),
-- What each paying subscription contributes at each snapshot (absent = 0), in twelfths of a micro.
contribution AS (
    SELECT sn.n, sub.provider, sub.billing_account_id, sp.subscription_id, sp.currency_code AS currency,
           sp.country_code AS country, sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
    FROM span sp JOIN subscriber sub USING (subscription_id)
    JOIN snapshot sn ON sn.at >= sp.effective_at AND (sp.next_at IS NULL OR sn.at < sp.next_at)
                    AND (sp.kind = 'GRACE' OR sn.at < sp.period_end_at)
    WHERE sp.kind <> 'OFF' AND sp.twelfths > 0
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

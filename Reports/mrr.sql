-- Month-end MRR: one row per month x provider x store product x plan x billing period x currency x country, in that
-- currency (the local view; the same MRR summed per provider and currency, and converted to the reporting currency,
-- is the mrr_micros of Reports/mrr_bridge.sql).
--
-- Columns: mrr_micros (the sum of the paying subscriptions' monthly-normalised recurring price at the month's
-- snapshot), paying_subscribers (how many subscriptions contribute), arppu_micros (mrr / paying subscribers).
-- product_id, plan_code, billing_period and country are those of the charge that sets the subscription's price at the
-- snapshot (its latest charge; in a grace period the renewal being retried).
-- Every cell is rounded half to even once from its exact sum (twelfths of a micro), so the rows of a provider and
-- currency may add up to the bridge's mrr_micros give or take half a micro per row.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "MRR" and "Basis and snapshots".

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
cell AS (
    SELECT c.n, c.provider, c.product_id, pl.code AS plan_code, c.billing_period, c.currency, c.country,
           sum(c.twelfths) AS twelfths, count(*) AS paying
    FROM contribution c LEFT JOIN plan pl ON pl.id = c.plan_id
    GROUP BY c.n, c.provider, c.product_id, pl.code, c.billing_period, c.currency, c.country
)
SELECT sn.month, c.provider, c.product_id, c.plan_code, c.billing_period, c.currency, c.country,
       (div(c.twelfths, 12) + CASE WHEN 2 * mod(c.twelfths, 12) > 12
                                        OR (2 * mod(c.twelfths, 12) = 12 AND mod(div(c.twelfths, 12), 2) = 1)
                                   THEN 1 ELSE 0 END)::bigint AS mrr_micros,
       c.paying AS paying_subscribers,
       (div(c.twelfths, 12 * c.paying) + CASE WHEN 2 * mod(c.twelfths, 12 * c.paying) > 12 * c.paying
                                                   OR (2 * mod(c.twelfths, 12 * c.paying) = 12 * c.paying
                                                       AND mod(div(c.twelfths, 12 * c.paying), 2) = 1)
                                              THEN 1 ELSE 0 END)::bigint AS arppu_micros
FROM cell c JOIN snapshot sn USING (n)
WHERE sn.reported
ORDER BY sn.month, c.provider, c.product_id NULLS FIRST, c.plan_code NULLS FIRST, c.billing_period NULLS FIRST,
         c.currency, c.country NULLS FIRST

-- Month-end finance metrics rebuilt from the history rows alone.
--
-- One row per calendar month (UTC) x provider x currency, in that currency (micros), for the months from
-- $2 to the month holding $1:
--   mrr_micros, paying_subscribers                         at the month's snapshot
--   start_mrr_micros, new/expansion/contraction/churn/reactivation (micros and counts), fx_micros
--                                                          the movement bridge from the previous snapshot
--   refunds_by_refund_month_count/_micros, chargebacks_count/_micros
--                                                          refunds and chargebacks dated in the month
--   refunds_by_charge_month_count/_micros                  the same refunds, by the month of the refunded charge
--   family_revocations                                     family-sharing revocations (no money) in the month
--
-- Parameters (positional, as a driver binds them; in psql use \bind or replace them):
--   $1  timestamptz  as-of instant: the last month's snapshot, and nothing effective later is read
--   $2  timestamptz  any instant of the first month reported (e.g. the history window's start)
--
-- Sources: billing_transaction (the history rows), plan-free: each charge carries the ISO billing_period of what it
-- bought; subscription only for its billing account (who), never for its status, plan or period columns.
-- Definitions (docs/METRICS.md):
--   * Snapshot: the month's last millisecond, or the as-of instant for the as-of month.
--   * Test purchases (any history row is_test) count nowhere.
--   * A subscription's contribution at instant t comes from its latest state row effective at or before t:
--       a charge (PURCHASED, RENEWED, RECOVERED, RESTARTED, PRODUCT_CHANGED with an amount and a paid period):
--         amount x monthly twelfths of its billing_period while t < period_end_at (half-open), then 0;
--       ENTERED_GRACE_PERIOD: still paying, at the price of the renewal being retried: the RECOVERED charge that ends
--         the grace when there is one, else the grace row's amount (the store's renewal price) over the latest
--         charge's billing period, else the latest paid charge;
--       ENTERED_ON_HOLD, PAUSED, EXPIRED, REVOKED, REFUNDED: 0.
--     CANCELED (auto-renew off) changes nothing: the paid period runs to its end.
--   * Monthly twelfths: P1W 52, P2W 26, P4W 13, P1M 12, P2M 6, P3M 4, P6M 2, P1Y 1 (whole twelfths of a month), so
--     every contribution is an exact integer number of twelfths of a micro; each cell sums twelfths and is rounded
--     half to even once (round() in PostgreSQL rounds half away from zero, so the rounding is spelled out).
--   * Bridge per billing account: v = this snapshot, p = the previous one (0 before the first month);
--     p = 0 < v new (reactivation if the account contributed at an earlier snapshot), v = 0 < p churn of p,
--     v > p > 0 expansion v - p, 0 < v < p contraction p - v; fx_micros balances the rounded cells.
--   * Refunds and chargebacks: REFUNDED rows of kind REFUND or CHARGEBACK, magnitude = -amount_micros, in the
--     refund row's currency; by the month of effective_at and by the month of the refunded charge's effective_at.

WITH params AS (
    SELECT $1::timestamptz AS as_of, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC') AS first_month
),
snapshot AS (
    SELECT to_char(m, 'YYYY-MM') AS month, m AS month_start,
           LEAST((m + interval '1 month' - interval '1 millisecond') AT TIME ZONE 'UTC', p.as_of) AS at,
           row_number() OVER (ORDER BY m) AS n
    FROM params p, generate_series(p.first_month, date_trunc('month', p.as_of AT TIME ZONE 'UTC'), interval '1 month') m
),
-- Every subscription with history, its provider and billing account; test purchases are left out.
subscriber AS (
    SELECT b.subscription_id, min(b.provider::text) AS provider, s.billing_account_id
    FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
    GROUP BY b.subscription_id, s.billing_account_id
    HAVING NOT bool_or(b.is_test)
),
-- The rows that change what a subscription contributes; a charge's contribution is amount x factor (twelfths of a micro).
state_row AS (
    SELECT b.subscription_id, b.effective_at, b.id, b.event_type,
           CASE WHEN b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                     AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL THEN 'CHARGE'
                WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 'GRACE'
                ELSE 'OFF' END AS kind,
           b.period_end_at, b.currency_code, b.amount_micros,
           CASE b.billing_period
               WHEN 'P1W' THEN 52 WHEN 'P2W' THEN 26 WHEN 'P4W' THEN 13 WHEN 'P1M' THEN 12 WHEN 'P2M' THEN 6
               WHEN 'P3M' THEN 4 WHEN 'P6M' THEN 2 WHEN 'P1Y' THEN 1 END AS factor
    FROM billing_transaction b JOIN subscriber s USING (subscription_id)
    WHERE b.effective_at <= (SELECT as_of FROM params)
      AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
            AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL)
           OR b.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED'))
),
-- A grace row contributes the renewal being retried: the charge that recovers it (the subscription's next charge, when
-- it is a RECOVERED one); else the price the grace row states (the store's renewal price) over the billing period of the
-- latest charge; else the latest paid charge.
charge_row AS (
    SELECT subscription_id, effective_at, id, event_type, period_end_at, currency_code, factor, amount_micros * factor AS twelfths
    FROM state_row WHERE kind = 'CHARGE'
),
priced_row AS (
    SELECT r.subscription_id, r.effective_at, r.id, r.kind, r.period_end_at,
           CASE WHEN r.kind = 'GRACE' THEN COALESCE(n.currency_code, r.currency_code, c.currency_code)
                ELSE r.currency_code END AS currency_code,
           CASE WHEN r.kind = 'GRACE' THEN COALESCE(n.twelfths, r.amount_micros * l.factor, c.twelfths)
                ELSE r.amount_micros * r.factor END AS twelfths
    FROM state_row r
    LEFT JOIN LATERAL (
        SELECT c.currency_code, c.twelfths FROM charge_row c
        WHERE r.kind = 'GRACE' AND c.subscription_id = r.subscription_id AND c.twelfths > 0 AND c.effective_at <= r.effective_at
        ORDER BY c.effective_at DESC, c.id DESC LIMIT 1) c ON true
    LEFT JOIN LATERAL (
        SELECT l.factor FROM charge_row l
        WHERE r.kind = 'GRACE' AND l.subscription_id = r.subscription_id AND l.effective_at <= r.effective_at
        ORDER BY l.effective_at DESC, l.id DESC LIMIT 1) l ON true
    LEFT JOIN LATERAL (
        SELECT n.currency_code, CASE WHEN n.event_type = 'RECOVERED' THEN n.twelfths END AS twelfths FROM charge_row n
        WHERE r.kind = 'GRACE' AND n.subscription_id = r.subscription_id AND n.effective_at > r.effective_at
        ORDER BY n.effective_at, n.id LIMIT 1) n ON true
),
-- Each priced row holds from its instant until the subscription's next one (rows at the same instant: the charge
-- first, then by id; the last holds), so a snapshot reads the row whose span contains it.
priced_span AS (
    SELECT p.subscription_id, p.effective_at, p.kind, p.period_end_at, p.currency_code, p.twelfths,
           lead(p.effective_at) OVER (PARTITION BY p.subscription_id ORDER BY p.effective_at, (p.kind = 'CHARGE') DESC, p.id) AS next_at
    FROM priced_row p
),
-- Each subscription's contribution at each snapshot (absent = 0), from its latest state row at or before it.
contribution AS (
    SELECT sn.n, s.subscription_id, s.billing_account_id, s.provider, r.currency_code,
           CASE WHEN r.kind = 'CHARGE' AND sn.at < r.period_end_at THEN r.twelfths
                WHEN r.kind = 'GRACE' THEN r.twelfths
                ELSE 0 END AS twelfths
    FROM snapshot sn
    JOIN priced_span r ON r.effective_at <= sn.at AND (r.next_at IS NULL OR sn.at < r.next_at)
    JOIN subscriber s ON s.subscription_id = r.subscription_id
),
-- Per billing account and snapshot: v now, p at the previous snapshot, and whether it contributed before.
account AS (
    SELECT a.n, a.billing_account_id, a.provider, a.currency_code, a.v,
           COALESCE(lag(a.v) OVER w, 0) AS p,
           COALESCE(bool_or(a.v > 0) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), false) AS paid_before
    FROM (
        SELECT sn.n, acc.billing_account_id, acc.provider, acc.currency_code, COALESCE(c.v, 0) AS v
        FROM snapshot sn
        CROSS JOIN (SELECT DISTINCT billing_account_id, provider, currency_code FROM contribution WHERE twelfths > 0) acc
        LEFT JOIN (SELECT n, billing_account_id, currency_code, sum(twelfths) AS v FROM contribution
                   GROUP BY n, billing_account_id, currency_code) c
               ON c.n = sn.n AND c.billing_account_id = acc.billing_account_id AND c.currency_code = acc.currency_code
    ) a
    WINDOW w AS (PARTITION BY a.billing_account_id, a.currency_code ORDER BY a.n)
),
-- Exact sums per cell, in twelfths of a micro.
mrr_cell AS (
    SELECT n, provider, currency_code,
           sum(v) AS mrr, sum(p) AS start, count(*) FILTER (WHERE v > 0) AS paying,
           sum(v) FILTER (WHERE p = 0 AND v > 0 AND NOT paid_before) AS new,
           count(*) FILTER (WHERE p = 0 AND v > 0 AND NOT paid_before) AS new_count,
           sum(v) FILTER (WHERE p = 0 AND v > 0 AND paid_before) AS reactivation,
           count(*) FILTER (WHERE p = 0 AND v > 0 AND paid_before) AS reactivation_count,
           sum(p) FILTER (WHERE v = 0 AND p > 0) AS churn,
           count(*) FILTER (WHERE v = 0 AND p > 0) AS churn_count,
           sum(v - p) FILTER (WHERE v > p AND p > 0) AS expansion,
           count(*) FILTER (WHERE v > p AND p > 0) AS expansion_count,
           sum(p - v) FILTER (WHERE v < p AND v > 0) AS contraction,
           count(*) FILTER (WHERE v < p AND v > 0) AS contraction_count
    FROM account
    WHERE v > 0 OR p > 0
    GROUP BY n, provider, currency_code
),
-- Rounded once per cell: twelfths -> micros, half to even.
mrr_rounded AS (
    SELECT c.n, c.provider, c.currency_code, r.*, c.paying, COALESCE(c.new_count, 0) AS new_count,
           c.expansion_count, c.contraction_count, c.churn_count, c.reactivation_count
    FROM mrr_cell c
    CROSS JOIN LATERAL (
        SELECT max(h) FILTER (WHERE k = 'mrr') AS mrr_micros, max(h) FILTER (WHERE k = 'start') AS start_mrr_micros,
               max(h) FILTER (WHERE k = 'new') AS new_micros, max(h) FILTER (WHERE k = 'expansion') AS expansion_micros,
               max(h) FILTER (WHERE k = 'contraction') AS contraction_micros, max(h) FILTER (WHERE k = 'churn') AS churn_micros,
               max(h) FILTER (WHERE k = 'reactivation') AS reactivation_micros
        FROM (
            SELECT k, CASE WHEN 2 * (x - 12 * q) > 12 THEN q + 1
                           WHEN 2 * (x - 12 * q) = 12 THEN q + (q % 2 + 2) % 2
                           ELSE q END AS h
            FROM (SELECT k, x, floor(x / 12.0)::numeric AS q
                  FROM (VALUES ('mrr', c.mrr), ('start', c.start), ('new', COALESCE(c.new, 0)),
                               ('expansion', COALESCE(c.expansion, 0)), ('contraction', COALESCE(c.contraction, 0)),
                               ('churn', COALESCE(c.churn, 0)), ('reactivation', COALESCE(c.reactivation, 0))) t(k, x)) t2
        ) t3) r
),
-- Refunds and chargebacks (money moved back), with the refunded charge's instant.
refund AS (
    SELECT r.provider::text AS provider, r.currency_code, -r.amount_micros AS micros, r.refund_kind,
           to_char(r.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS refund_month,
           to_char(c.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS charge_month
    FROM billing_transaction r JOIN subscriber s USING (subscription_id)
    LEFT JOIN billing_transaction c ON c.transaction_key = r.refunded_transaction_key
    WHERE r.event_type = 'REFUNDED' AND r.refund_kind IN ('REFUND', 'CHARGEBACK')
      AND r.effective_at <= (SELECT as_of FROM params)
),
family AS (
    SELECT DISTINCT r.subscription_id, r.provider::text AS provider, r.effective_at,
           to_char(r.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month
    FROM billing_transaction r JOIN subscriber s USING (subscription_id)
    WHERE r.refund_kind = 'FAMILY_REVOKE' AND r.effective_at <= (SELECT as_of FROM params)
),
-- The family row's currency: the subscription's latest charge before it.
family_cell AS (
    SELECT f.month, f.provider, c.currency_code, count(*) AS family_revocations
    FROM family f
    JOIN LATERAL (SELECT b.currency_code FROM billing_transaction b
                  WHERE b.subscription_id = f.subscription_id AND b.currency_code IS NOT NULL AND b.effective_at <= f.effective_at
                  ORDER BY b.effective_at DESC LIMIT 1) c ON true
    GROUP BY f.month, f.provider, c.currency_code
),
refund_cell AS (
    SELECT month, provider, currency_code,
           sum(n_refund) AS refunds_by_refund_month_count, sum(m_refund) AS refunds_by_refund_month_micros,
           sum(n_chargeback) AS chargebacks_count, sum(m_chargeback) AS chargebacks_micros,
           sum(n_charge) AS refunds_by_charge_month_count, sum(m_charge) AS refunds_by_charge_month_micros
    FROM (
        SELECT refund_month AS month, provider, currency_code, 1 AS n_refund, micros AS m_refund,
               (refund_kind = 'CHARGEBACK')::int AS n_chargeback,
               CASE WHEN refund_kind = 'CHARGEBACK' THEN micros ELSE 0 END AS m_chargeback,
               0 AS n_charge, 0 AS m_charge
        FROM refund
        UNION ALL
        SELECT charge_month, provider, currency_code, 0, 0, 0, 0, 1, micros
        FROM refund WHERE charge_month IS NOT NULL
    ) t
    GROUP BY month, provider, currency_code
),
cell AS (
    SELECT sn.month, m.provider, m.currency_code FROM mrr_rounded m JOIN snapshot sn USING (n)
    UNION SELECT month, provider, currency_code FROM refund_cell WHERE month IN (SELECT month FROM snapshot)
    UNION SELECT month, provider, currency_code FROM family_cell WHERE month IN (SELECT month FROM snapshot)
)
SELECT c.month, sn.at AS snapshot_at, c.provider, c.currency_code AS currency,
       COALESCE(m.mrr_micros, 0)::bigint AS mrr_micros,
       COALESCE(m.paying, 0)::bigint AS paying_subscribers,
       COALESCE(m.start_mrr_micros, 0)::bigint AS start_mrr_micros,
       (COALESCE(m.mrr_micros, 0) - COALESCE(m.start_mrr_micros, 0) - COALESCE(m.new_micros, 0)
        - COALESCE(m.expansion_micros, 0) + COALESCE(m.contraction_micros, 0) + COALESCE(m.churn_micros, 0)
        - COALESCE(m.reactivation_micros, 0))::bigint AS fx_micros,
       COALESCE(m.new_micros, 0)::bigint AS new_micros,
       COALESCE(m.expansion_micros, 0)::bigint AS expansion_micros,
       COALESCE(m.contraction_micros, 0)::bigint AS contraction_micros,
       COALESCE(m.churn_micros, 0)::bigint AS churn_micros,
       COALESCE(m.reactivation_micros, 0)::bigint AS reactivation_micros,
       COALESCE(m.new_count, 0)::bigint AS new_count,
       COALESCE(m.expansion_count, 0)::bigint AS expansion_count,
       COALESCE(m.contraction_count, 0)::bigint AS contraction_count,
       COALESCE(m.churn_count, 0)::bigint AS churn_count,
       COALESCE(m.reactivation_count, 0)::bigint AS reactivation_count,
       COALESCE(r.refunds_by_refund_month_count, 0)::bigint AS refunds_by_refund_month_count,
       COALESCE(r.refunds_by_refund_month_micros, 0)::bigint AS refunds_by_refund_month_micros,
       COALESCE(r.chargebacks_count, 0)::bigint AS chargebacks_count,
       COALESCE(r.chargebacks_micros, 0)::bigint AS chargebacks_micros,
       COALESCE(r.refunds_by_charge_month_count, 0)::bigint AS refunds_by_charge_month_count,
       COALESCE(r.refunds_by_charge_month_micros, 0)::bigint AS refunds_by_charge_month_micros,
       COALESCE(f.family_revocations, 0)::bigint AS family_revocations
FROM cell c
JOIN snapshot sn ON sn.month = c.month
LEFT JOIN mrr_rounded m ON m.n = sn.n AND m.provider = c.provider AND m.currency_code = c.currency_code
LEFT JOIN refund_cell r ON r.month = c.month AND r.provider = c.provider AND r.currency_code = c.currency_code
LEFT JOIN family_cell f ON f.month = c.month AND f.provider = c.provider AND f.currency_code = c.currency_code
ORDER BY c.month, c.provider, c.currency_code

-- Refunds, chargebacks and family-sharing revocations, counted twice: by the month of the refund (view
-- 'by_refund_month') and by the month of the charge it refunds (view 'by_charge_month'). One row per view x month x
-- provider x currency x refund kind x store reason.
--
-- Columns:
--   refund_kind                 REFUND | CHARGEBACK | FAMILY_REVOKE (a family member lost access; no money moves)
--   store_reason                the store's codes in words: Apple revocationReason (0 other, 1 app issue) or
--                               revocationType; Google voidedSource (user, developer, google) / voidedReason
--   refunds_count               refund rows; family revocations are counted once per subscription and instant
--   refunded_transactions_count distinct paid transactions refunded
--   refunds_micros              money returned (positive), in the refunded charge's currency; 0 for FAMILY_REVOKE
--   paid_transactions_count     charges with an amount > 0 (purchase, renewal, recovery, restart, upgrade) effective
--                               in the same month, provider and currency (the denominator)
--   refund_rate                 refunded_transactions_count / paid_transactions_count, 6 decimals like every rate
--                               (empty when there were no paid transactions, and for FAMILY_REVOKE, which refunds nothing)
--   median_days, p90_days       days from the refunded charge to the refund: the smallest value with at least 50% / 90%
--                               of the row's refunds at or below it (percentile_disc), to 4 decimals
-- A refund whose refunded charge is not in the history is counted by refund month only.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "Refunds" and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- The history rows read: effective by the as-of instant; under basis 'known' also recorded by then. Read where used
-- (NOT MATERIALIZED): materialized, every column of every row was copied once more, past work_mem, for the two uses.
history AS NOT MATERIALIZED (
    SELECT b.* FROM billing_transaction b, params p
    WHERE b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
),
-- Who counts: subscriptions that are not test or sandbox purchases (no history row of theirs is a test row). The
-- provider stays the schema's enum here (grouped, not printed) and is named as text once per group or refund.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
),
-- The paid charges per month, provider and currency of the subscriptions that count: the run's (`report_run_paid_count`,
-- the months before the first one a change since the last store reaches read from the store, the excluded
-- subscriptions' charges subtracted; computed from the history when the file runs on its own: Reports/README.md,
-- "Stored paid counts").
paid AS (
    SELECT to_char(c.month, 'YYYY-MM') AS month, c.provider, c.currency, c.paid_count AS paid_transactions_count
    FROM report_run_paid_count($1, $5) c
),
-- Every refund, chargeback and family revocation with the charge it refunds (a family revocation once per
-- subscription and instant; its currency is that of the refunded charge, else the latest charge before it).
-- (The rows are found through the partial index of the refund rows, migration 0058, not a scan of the history.)
refund AS (
    SELECT DISTINCT ON (r.subscription_id, r.effective_at, CASE WHEN r.refund_kind = 'FAMILY_REVOKE' THEN '' ELSE r.id::text END)
           sub.provider::text AS provider, r.refund_kind::text AS refund_kind,
           COALESCE(r.currency_code, c.currency_code, l.currency_code) AS currency,
           CASE WHEN r.refund_kind = 'FAMILY_REVOKE' THEN 0 ELSE -r.amount_micros END AS micros,
           CASE WHEN r.provider = 'APPLE' AND r.refund_kind = 'FAMILY_REVOKE'
                    THEN 'apple revocationType ' || COALESCE(r.revocation_type, 'FAMILY_REVOKE')
                WHEN r.provider = 'APPLE'
                    THEN 'apple revocationReason ' || COALESCE(CASE r.revocation_reason WHEN 0 THEN '0 other'
                                                                   WHEN 1 THEN '1 app issue'
                                                                   ELSE r.revocation_reason::text END, 'none')
                WHEN r.provider = 'GOOGLE'
                    THEN 'google voidedSource ' || COALESCE(CASE r.voided_source WHEN 0 THEN '0 user' WHEN 1 THEN '1 developer'
                                                               WHEN 2 THEN '2 google' ELSE r.voided_source::text END, 'none')
                         || ' voidedReason ' || COALESCE(CASE r.voided_reason WHEN 0 THEN '0 other' WHEN 1 THEN '1 remorse'
                                                            WHEN 2 THEN '2 not received' WHEN 3 THEN '3 defective'
                                                            WHEN 4 THEN '4 accidental purchase' WHEN 5 THEN '5 fraud'
                                                            WHEN 6 THEN '6 friendly fraud' WHEN 7 THEN '7 chargeback'
                                                            ELSE r.voided_reason::text END, 'none')
                ELSE COALESCE(r.reason, 'none') END AS store_reason,
           COALESCE(r.refunded_transaction_key, r.transaction_key) AS refunded_key,
           to_char(r.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS refund_month,
           to_char(c.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS charge_month,
           round(extract(epoch FROM r.effective_at - c.effective_at) / 86400, 4) AS days
    FROM history r JOIN subscriber sub USING (subscription_id)
    LEFT JOIN billing_transaction c ON c.transaction_key = r.refunded_transaction_key
    -- (looked up only for a refund whose currency neither it nor its refunded charge gives: a family revocation)
    LEFT JOIN LATERAL (SELECT b.currency_code FROM billing_transaction b
                       WHERE r.currency_code IS NULL AND c.currency_code IS NULL
                         AND b.subscription_id = r.subscription_id AND b.currency_code IS NOT NULL
                         AND b.effective_at <= r.effective_at AND b.event_type <> 'REFUNDED'
                       ORDER BY b.effective_at DESC, b.id DESC LIMIT 1) l ON true
    WHERE (r.event_type = 'REFUNDED' AND r.refund_kind IN ('REFUND', 'CHARGEBACK')) OR r.refund_kind = 'FAMILY_REVOKE'
    ORDER BY r.subscription_id, r.effective_at, CASE WHEN r.refund_kind = 'FAMILY_REVOKE' THEN '' ELSE r.id::text END, r.id
),
counted AS (
    SELECT 'by_refund_month' AS view, refund_month AS month, provider, currency, refund_kind, store_reason,
           count(*) AS refunds_count, count(DISTINCT refunded_key) AS refunded_transactions_count, sum(micros) AS micros,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY days) AS median_days,
           percentile_disc(0.9) WITHIN GROUP (ORDER BY days) AS p90_days
    FROM refund GROUP BY refund_month, provider, currency, refund_kind, store_reason
    UNION ALL
    SELECT 'by_charge_month', charge_month, provider, currency, refund_kind, store_reason,
           count(*), count(DISTINCT refunded_key), sum(micros),
           percentile_disc(0.5) WITHIN GROUP (ORDER BY days), percentile_disc(0.9) WITHIN GROUP (ORDER BY days)
    FROM refund WHERE charge_month IS NOT NULL
    GROUP BY charge_month, provider, currency, refund_kind, store_reason
)
SELECT c.view, c.month, c.provider, c.currency, c.refund_kind, c.store_reason,
       c.refunds_count, c.refunded_transactions_count, c.micros::bigint AS refunds_micros,
       COALESCE(p.paid_transactions_count, 0) AS paid_transactions_count,
       CASE WHEN c.refund_kind <> 'FAMILY_REVOKE' AND p.paid_transactions_count > 0
            THEN round(c.refunded_transactions_count::numeric / p.paid_transactions_count, 6) END AS refund_rate,
       c.median_days, c.p90_days
FROM counted c
CROSS JOIN params pr
LEFT JOIN paid p ON p.month = c.month AND p.provider = c.provider AND p.currency = c.currency
WHERE c.month BETWEEN to_char(pr.first_month, 'YYYY-MM') AND to_char(pr.last_month, 'YYYY-MM')
ORDER BY c.view DESC, c.month, c.provider, c.currency, c.refund_kind, c.store_reason

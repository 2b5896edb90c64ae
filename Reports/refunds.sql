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
-- The paid charges per month, provider and currency of the subscriptions that count: the run's (`report_run_paid_count`,
-- the months before the first one a change since the last store reaches read from the store, the excluded
-- subscriptions' charges subtracted; computed from the history when the file runs on its own: Reports/README.md,
-- "Stored paid counts").
paid AS (
    SELECT to_char(c.month, 'YYYY-MM') AS month, c.provider, c.currency, c.paid_count AS paid_transactions_count
    FROM report_run_paid_count($1, $5) c
),
-- Every refund, chargeback and family revocation of the subscriptions that count, with the charge it refunds (a family
-- revocation once per subscription and instant; its currency is that of the refunded charge, else the latest charge
-- before it): the run's refund facts (`report_run_refund_fact`, one row per refund, the subscriptions unchanged since
-- the last store read from it; computed from the history when the file runs on its own: Reports/README.md, "Stored
-- refund facts"). A refunded charge that is not a row of the refund's own subscription is looked up by its key here.
refund AS (
    SELECT f.provider, f.refund_kind, COALESCE(f.refund_currency, f.charge_currency, o.currency_code, f.fallback_currency) AS currency,
           f.micros, f.store_reason, f.refunded_key,
           to_char(f.refund_at AT TIME ZONE 'UTC', 'YYYY-MM') AS refund_month,
           to_char(COALESCE(f.charge_at, o.effective_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS charge_month,
           round(extract(epoch FROM f.refund_at - COALESCE(f.charge_at, o.effective_at)) / 86400, 4) AS days
    FROM report_run_refund_fact($1, $5) f
    -- (LIMIT 1, the key being unique, keeps the look-up a per-fact index probe: flattened, it became a hash join
    -- over every history row)
    LEFT JOIN LATERAL (SELECT c.effective_at, c.currency_code FROM billing_transaction c
                       WHERE f.other_charge_key IS NOT NULL AND c.transaction_key = f.other_charge_key LIMIT 1) o ON true
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

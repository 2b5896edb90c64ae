-- cohorts' last month from the stored first charges alone (issue 31; Reports/README.md, "The as-of month's net
-- revenue beside the first charges").
--
-- A night's cohorts file needs, for every customer the last month touches, its net revenue in that month and its start
-- month. It read the month's paid charges and refunds by index and joined them to their subscriptions (1.3–2.1 s of a
-- 1M night: 280 000 rows from 81 000 heap pages, and a hash of every subscription), then joined the 250 000 customers
-- that gave to the run's first charges (1.5 s): 3–3.5 s at the end of the late session, after the movements. A
-- subscription's net revenue in the as-of month by the as-of instant is, like its earliest paid charge, a fact of its
-- own rows: it changes only when the subscription is a candidate since the store (`report_history_changed`, 0053,
-- which names every subscription with a row whose effective or recorded instant lies between the two as-of instants)
-- — or when the as-of month is another month than the store's. So:
--   * `report_first_charge(as_of, basis, subscriptions)` gives, beside each subscription's earliest paid charge per
--     currency, `month_net`: its paid charges less its refunds and chargebacks effective in the as-of month (UTC) by
--     the as-of instant, in that currency (NULL: none), and a row for a currency it has only refunds in during that
--     month (`first_at` NULL): another subscription of the same account may have charged in it;
--   * build-reports reads the stored rows only when they were stored for the run's as-of month (their definition names
--     it: `SubscriptionFacts`), so the first night of a month computes every subscription's again;
--   * cohorts.sql, when its last month is the as-of month, groups the run's first charges by customer (one pass over
--     them: start month and net revenue together) instead of reading the month's rows.
-- The function's SQL changes, so the stored first charges are read by no run; the next night computes every one.

DROP FUNCTION report_run_first_charge(timestamptz, text);
DROP FUNCTION report_first_charge(timestamptz, text, uuid[]);
ALTER TABLE report_first_charge_run ADD COLUMN month_net bigint;
ALTER TABLE report_stored_first_charge ADD COLUMN month_net bigint;
DELETE FROM report_stored_first_charge;

CREATE FUNCTION report_first_charge(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, account uuid, currency text, first_at timestamptz, month_net bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT p.*, date_trunc('month', p.as_of AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month_start
    FROM report_params($1, $1, $1, NULL, $2) p
)
-- Paid charges (amount > 0: purchase, renewal, recovery, restart, upgrade) and, in the as-of month, refunds and
-- chargebacks with an amount (their negative amounts), with a currency, effective by the as-of instant (under basis
-- 'known' also recorded by then), of subscriptions that are no test or sandbox purchase and have no test row. Every
-- subscription's: one grouping of the history's rows, joined to `subscription`.
SELECT f.subscription_id, s.provider::text, COALESCE(s.billing_account_id, s.id), f.currency_code, f.first_at, f.month_net
FROM (SELECT b.subscription_id, b.currency_code, min(b.effective_at) FILTER (WHERE b.event_type <> 'REFUNDED') AS first_at,
             sum(b.amount_micros) FILTER (WHERE b.effective_at >= p.month_start)::bigint AS month_net
      FROM billing_transaction b CROSS JOIN params p
      WHERE $3 IS NULL
        AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
             OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL
                 AND b.effective_at >= p.month_start))
        AND b.currency_code IS NOT NULL
        AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      GROUP BY b.subscription_id, b.currency_code) f
JOIN subscription s ON s.id = f.subscription_id
WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
UNION ALL
-- The given subscriptions' (a night's candidates): each one's row by its key and its rows by index.
SELECT s.id, s.provider::text, COALESCE(s.billing_account_id, s.id), f.currency_code, f.first_at, f.month_net
FROM unnest($3) AS c(id)
JOIN subscription s ON s.id = c.id
CROSS JOIN LATERAL (
    SELECT b.currency_code, min(b.effective_at) FILTER (WHERE b.event_type <> 'REFUNDED') AS first_at,
           sum(b.amount_micros) FILTER (WHERE b.effective_at >= p.month_start)::bigint AS month_net
    FROM billing_transaction b CROSS JOIN params p
    WHERE b.subscription_id = s.id
      AND ((b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0)
           OR (b.event_type = 'REFUNDED' AND b.refund_kind IN ('REFUND', 'CHARGEBACK') AND b.amount_micros IS NOT NULL
               AND b.effective_at >= p.month_start))
      AND b.currency_code IS NOT NULL
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
    GROUP BY b.currency_code) f
WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
$fn$;
COMMENT ON FUNCTION report_first_charge(timestamptz, text, uuid[]) IS
    'Per subscription that counts (the given ones, all with NULL) and currency as of $1 under basis $2: its provider, account, earliest paid charge (NULL: only refunds in the as-of month) and net revenue in the as-of month (NULL: none); cohorts'' start months and last month in a night, stored beside the spans (migrations 0065, 0074).';

CREATE FUNCTION report_run_first_charge(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, provider text, account uuid, currency text, first_at timestamptz, month_net bigint)
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_first_charge_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'first_charge' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_first_charge($1, $2, NULL) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'first_charge' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_first_charge(timestamptz, text) IS
    'The run''s first charges (report_first_charge_run) when build-reports filled them for this as-of instant and basis; report_first_charge($1, $2, NULL) otherwise (migrations 0065, 0074).';

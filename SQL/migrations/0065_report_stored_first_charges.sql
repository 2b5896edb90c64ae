-- cohorts' start months from stored first charges (issue 31; Reports/README.md, "Cohorts in a night").
--
-- A night's cohorts file adds the last month to the month before's cells, and needs the start month of every customer
-- the last month touches (one with a charge or refund in it, or a start, restart or stop at its snapshot): the month
-- of the customer's earliest paid charge over its account's subscriptions that count, in its currency. It looked that
-- up by index per customer (≈ 220 000 customers, 4.4 s of a 1M night, most of them renewals whose start month is
-- long known). A subscription's earliest paid charge per currency reads only its own rows and its `subscription` row
-- (provider, billing account, test flags), so it changes only when the subscription is a candidate since the store
-- (`report_history_changed`, 0053). So, as the failure episodes (0055) and refund facts (0064):
--   * `report_first_charge(as_of, basis, subscriptions)`: per subscription that counts (the given ones, every one
--     with NULL) and currency, its provider, its account (its billing account, or itself when unclaimed) and the
--     instant of its earliest paid charge;
--   * the late session of a run fills a temporary `report_first_charge_run` (the stored rows of the subscriptions that
--     are no candidates, the candidates' computed; every one computed when there is no store of this function's), and
--     the file takes each touched customer's start month from it (`report_run_first_charge`, computed from the
--     history when the run did not fill it);
--   * the run that stores the spans stores what it computed beside them (`report_stored_first_charge`).

CREATE FUNCTION report_first_charge(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, provider text, account uuid, currency text, first_at timestamptz)
LANGUAGE sql STABLE AS $fn$
WITH params AS NOT MATERIALIZED (
    SELECT * FROM report_params($1, $1, $1, NULL, $2)
)
-- Paid charges (amount > 0: purchase, renewal, recovery, restart, upgrade) with a currency, effective by the as-of
-- instant (under basis 'known' also recorded by then), of subscriptions that are no test or sandbox purchase and have
-- no test row. Every subscription's: one grouping of the history's charges, joined to `subscription`.
SELECT f.subscription_id, s.provider::text, COALESCE(s.billing_account_id, s.id), f.currency_code, f.first_at
FROM (SELECT b.subscription_id, b.currency_code, min(b.effective_at) AS first_at
      FROM billing_transaction b CROSS JOIN params p
      WHERE $3 IS NULL
        AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0
        AND b.currency_code IS NOT NULL
        AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      GROUP BY b.subscription_id, b.currency_code) f
JOIN subscription s ON s.id = f.subscription_id
WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
UNION ALL
-- The given subscriptions' (a night's candidates): each one's row by its key and its charges by index (joined as the
-- whole, this was a hash join over every subscription for a few thousand).
SELECT s.id, s.provider::text, COALESCE(s.billing_account_id, s.id), f.currency_code, f.first_at
FROM unnest($3) AS c(id)
JOIN subscription s ON s.id = c.id
CROSS JOIN LATERAL (
    SELECT b.currency_code, min(b.effective_at) AS first_at
    FROM billing_transaction b CROSS JOIN params p
    WHERE b.subscription_id = s.id
      AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0
      AND b.currency_code IS NOT NULL
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
    GROUP BY b.currency_code) f
WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
$fn$;
COMMENT ON FUNCTION report_first_charge(timestamptz, text, uuid[]) IS
    'Per subscription that counts (the given ones, all with NULL) and currency as of $1 under basis $2: its provider, account and earliest paid charge; cohorts'' start months in a night, stored beside the spans (migration 0065).';

-- The run's first charges: the late session fills a temporary report_first_charge_run; the placeholder is always empty.
CREATE TABLE report_first_charge_run (subscription_id uuid, provider text, account uuid, currency text, first_at timestamptz,
                                      CONSTRAINT report_first_charge_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_first_charge_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0065).';

CREATE FUNCTION report_run_first_charge(as_of timestamptz, basis text)
RETURNS TABLE (subscription_id uuid, provider text, account uuid, currency text, first_at timestamptz)
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_first_charge_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'first_charge' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_first_charge($1, $2, NULL) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'first_charge' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_first_charge(timestamptz, text) IS
    'The run''s first charges (report_first_charge_run) when build-reports filled them for this as-of instant and basis; report_first_charge($1, $2, NULL) otherwise (migration 0065).';

-- The store, per basis, as of the span set's as-of instant and snapshot; a cache (UNLOGGED), with the digest of
-- report_first_charge's SQL that computed it.
CREATE UNLOGGED TABLE report_stored_first_charge (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id uuid NOT NULL,
    provider        text,
    account         uuid,
    currency        text,
    first_at        timestamptz,
    definition      text NOT NULL
);
CREATE INDEX report_stored_first_charge_subscription ON report_stored_first_charge (basis, subscription_id);
COMMENT ON TABLE report_stored_first_charge IS
    'build-reports: per basis, the earliest paid charge per currency (report_first_charge) of every subscription as of the stored span set''s as-of instant and snapshot (migration 0065).';
